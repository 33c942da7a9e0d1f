import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FrameworkError } from '../../../domain/shared/errors.js';

/** One file a generator writes, its path relative to the app's folder. */
export interface GeneratedFile {
  readonly path: string;
  readonly text: string;
}

/**
 * Writes the files under `root`, all or none: when one exists already nothing is written and
 * the error names it. Returns the paths written, for the command to print.
 */
export async function writeNewFiles(root: string, files: readonly GeneratedFile[]): Promise<string[]> {
  const existing = files.filter((file) => existsSync(join(root, file.path)));
  if (existing.length > 0) throw new FrameworkError('cli.file-exists', `${existing.map((file) => file.path).join(', ')} exists already; nothing was written`);
  for (const file of files) {
    const path = join(root, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text, { flag: 'wx' });
  }
  return files.map((file) => file.path);
}
