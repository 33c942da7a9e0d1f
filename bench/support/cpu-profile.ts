/** The parts of a V8 CPU profile (`Profiler.stop`, `--cpu-prof`) the profile scripts read. */
export interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A short place name: the package file, or the path under dist/. */
export function place(url: string): string {
  if (url === '') return '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  const project = url.indexOf('/dist/');
  return project >= 0 ? url.slice(project + '/dist/'.length) : url.replace(/^file:\/\//u, '');
}

/** A function's name as the summaries print it: `name  place:line`. */
export function frameName(callFrame: ProfileNode['callFrame']): string {
  const { functionName, url, lineNumber } = callFrame;
  return `${functionName || '(anonymous)'}  ${place(url)}${url === '' ? '' : `:${lineNumber + 1}`}`;
}
