import type { ChildProcess } from 'node:child_process';

/**
 * The servers a bench starts in processes of their own (so the server under test and the load
 * generator each get a core): stopped politely, or all killed when the bench fails.
 */
export class ChildServers {
  private readonly children = new Set<ChildProcess>();

  add(child: ChildProcess): ChildProcess {
    this.children.add(child);
    return child;
  }

  /** For a bench that fails or runs out of time: no server outlives it. */
  killAll(): void {
    for (const child of this.children) if (child.exitCode === null) child.kill('SIGKILL');
  }

  /** Asks the server to stop ('stop' over IPC); kills it after ten seconds. */
  async stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.send('stop');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    this.children.delete(child);
  }
}

/**
 * The server side: stops on the parent's 'stop' or when the parent goes away, answers other
 * messages with `onMessage`, and tells the parent it is ready with `ready`.
 */
export function serveParent(running: { stop(): Promise<void> }, ready: object, onMessage: (message: unknown) => void = () => undefined): void {
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await running.stop();
    process.exit(0);
  };
  process.on('message', (message) => {
    if (message === 'stop') void stop();
    else onMessage(message);
  });
  process.on('disconnect', () => void stop());
  process.send?.(ready);
}
