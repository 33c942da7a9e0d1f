/**
 * What reading a file upload costs: the framework's multipart parser (busboy, streaming each
 * file to a temporary file) against hapi's own parser (subtext) as the framework used it before
 * (`output: 'data'`, the whole file in memory) and with `output: 'file'`, all measured in this
 * same run over the same body: throughput (MB/s) and the growth of the process's memory
 * (RSS, sampled every 2 ms) while one 32 MB upload is read. No socket: the body is a stream of
 * 64 KB chunks, so the figures are the parsers', not the network's. Runs in seconds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import { DEFAULT_MULTIPART_LIMITS, parseMultipart } from '../adapters/http/uploads/multipart.js';

/** hapi's parser, installed with @hapi/hapi; it ships no types, so the part used here is typed. */
const Subtext = createRequire(import.meta.url)('@hapi/subtext') as {
  parse(request: Readable, tap: null, options: Record<string, unknown>): Promise<{ payload: unknown }>;
};

const FILE_MB = 32;
const ROUNDS = 3;
const BOUNDARY = 'fw-bench-boundary';

function body(): Buffer {
  const block = randomBytes(64 * 1024);
  const file = Buffer.concat(Array.from({ length: (FILE_MB * 1024 * 1024) / block.length }, () => block));
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nreport\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** The body as a request-like stream: 64 KB chunks, with headers (what subtext reads). */
function request(bytes: Buffer): Readable & { headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 64 * 1024) chunks.push(bytes.subarray(at, at + 64 * 1024));
  return Object.assign(Readable.from(chunks), { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(bytes.length) } });
}

async function measure(name: string, run: () => Promise<void>): Promise<{ name: string; mbPerSecond: number; peakMb: number }> {
  let best = Infinity;
  let peak = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let highest = before;
    const sampler = setInterval(() => {
      highest = Math.max(highest, process.memoryUsage().rss);
    }, 2);
    const started = performance.now();
    await run();
    best = Math.min(best, performance.now() - started);
    clearInterval(sampler);
    peak = Math.max(peak, (Math.max(highest, process.memoryUsage().rss) - before) / 1024 / 1024);
  }
  return { name, mbPerSecond: FILE_MB / (best / 1000), peakMb: peak };
}

const bytes = body();
const tempDir = mkdtempSync(join(tmpdir(), 'fw-upload-bench-'));
const maxBytes = bytes.length + 1;
try {
  const results = [
    await measure('hapi subtext, output data (before)', async () => {
      await Subtext.parse(request(bytes), null, { parse: true, output: 'data', maxBytes, multipart: { output: 'data' } });
    }),
    await measure('hapi subtext, output file', async () => {
      const parsed = await Subtext.parse(request(bytes), null, { parse: true, output: 'file', maxBytes, uploads: tempDir, multipart: { output: 'file' } });
      rmSync((parsed.payload as { file: { path: string } }).file.path, { force: true });
    }),
    await measure('fw parseMultipart (busboy → temp file)', async () => {
      const parsed = await parseMultipart(request(bytes), request(bytes).headers, { tempDir, limits: { ...DEFAULT_MULTIPART_LIMITS, maxBytes } });
      await parsed.cleanup();
    }),
  ];
  const baseline = results[0];
  console.log(`one ${FILE_MB} MB upload, best of ${ROUNDS}; peak RSS growth while reading${(globalThis as { gc?: unknown }).gc === undefined ? ' (rough: run with --expose-gc)' : ''}`);
  for (const result of results) {
    const ratio = baseline === undefined ? 1 : result.mbPerSecond / baseline.mbPerSecond;
    console.log(`${result.name.padEnd(40)} ${result.mbPerSecond.toFixed(0).padStart(6)} MB/s (${ratio.toFixed(2)}x)   peak +${result.peakMb.toFixed(1)} MB`);
  }
} finally {
  rmSync(tempDir, { recursive: true, force: true });
}
