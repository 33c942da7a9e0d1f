/**
 * A worker process for cross-process-wake-ups.test.ts: the small queue app's worker (2 loops)
 * polling only every WORKER_POLL_MS (the test sets minutes), so a job it starts within seconds
 * was announced to it. Prints `ready` once running; SIGTERM stops it.
 * `node --import tsx tests/integration/queue/idle-worker.process.ts`
 */
import { queueApp } from '../../support/queue-app.js';

const app = queueApp();
try {
  const worker = await app.worker({ concurrency: 2, pollMs: Number(process.env['WORKER_POLL_MS'] ?? 600_000) });
  process.once('SIGTERM', () => void worker.stop());
  const running = worker.run();
  process.stdout.write('ready\n');
  await running;
} finally {
  await app.close();
}
