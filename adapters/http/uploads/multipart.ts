import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { readFileFacts } from './file-facts.js';
import { Upload, displayName } from './upload.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface MultipartLimits {
  /** The whole body, in bytes (UPLOAD_MAX_SIZE). */
  maxBytes: number;
  /** Fields and files together; hapi's default is 1000. */
  maxParts: number;
  maxFiles: number;
  /** One text field's value, in bytes. */
  maxFieldBytes: number;
  /** No byte for this long: the client stalled. */
  idleTimeoutMs: number;
}

export const DEFAULT_MULTIPART_LIMITS: Omit<MultipartLimits, 'maxBytes'> = {
  maxParts: 1000,
  maxFiles: 100,
  maxFieldBytes: 1024 * 1024,
  idleTimeoutMs: 10_000,
};

export type MultipartFailure = 'too-large' | 'too-many-parts' | 'malformed' | 'timeout';

/** A body refused; `status` and `message` are what the visitor is told. */
export class MultipartError extends FrameworkError {
  constructor(
    readonly reason: MultipartFailure,
    readonly status: 400 | 408 | 413,
    message: string,
  ) {
    super('http.multipart', message);
  }
}

export const UPLOAD_SENTENCES = {
  'too-large': 'The form is too large.',
  'too-many-parts': 'The form has too many fields or files.',
  malformed: 'The form could not be read. Send it again.',
  timeout: 'The form took too long to arrive. Send it again.',
} as const satisfies Record<MultipartFailure, string>;

const STATUS: Record<MultipartFailure, 400 | 408 | 413> = { 'too-large': 400, 'too-many-parts': 413, malformed: 400, timeout: 408 };

function failure(reason: MultipartFailure): MultipartError {
  return new MultipartError(reason, STATUS[reason], UPLOAD_SENTENCES[reason]);
}

export type FormValue = string | Upload;
export type FormFields = Record<string, FormValue | FormValue[]>;

export interface ParsedMultipart {
  /** Text fields and files by name; a repeated name gives a list (text values first, then files). */
  fields: FormFields;
  uploads: readonly Upload[];
  /** Removes the temporary files: call when the request is over. */
  cleanup(): Promise<void>;
}

/** A name that would become an object's prototype when assigned. */
const FORBIDDEN_NAMES = new Set(['__proto__']);

/**
 * Reads a `multipart/form-data` body from any byte stream (a Node request, a WHATWG body
 * turned into a stream), so every transport parses forms the same way. Text fields are kept in
 * memory (each at most `maxFieldBytes`); files are streamed to fresh temporary files (random
 * names, mode 0600, under `tempDir`), then their type is sniffed from the bytes and an image's
 * size read from its header. Any failure, a body cut short included, removes every temporary
 * file before it is reported, so a refused request leaves nothing behind.
 */
export async function parseMultipart(
  source: Readable,
  headers: Record<string, string | string[] | undefined>,
  options: { tempDir: string; limits: MultipartLimits },
): Promise<ParsedMultipart> {
  const { limits, tempDir } = options;
  const created: string[] = [];
  const writes: Promise<void>[] = [];
  const writers: WriteStream[] = [];
  const pending: { field: string; name: string; clientType: string; path: string; size: () => number }[] = [];
  // No prototype: a field named `constructor` or `toString` is a field like any other.
  const fields: FormFields = Object.create(null) as FormFields;
  const cleanup = async (): Promise<void> => {
    await Promise.all(created.map((path) => rm(path, { force: true })));
  };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers,
      defParamCharset: 'utf8',
      limits: { fileSize: limits.maxBytes, files: limits.maxFiles, parts: limits.maxParts, fieldSize: limits.maxFieldBytes, fieldNameSize: 200 },
    });
  } catch {
    // No boundary, or not multipart at all.
    source.resume();
    throw failure('malformed');
  }
  await mkdir(tempDir, { recursive: true, mode: 0o700 });

  const add = (name: string, value: FormValue): void => {
    const existing = fields[name];
    if (existing === undefined) fields[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else fields[name] = [existing, value];
  };

  // Set once the body is refused: the writes then stopped on purpose, and their errors are not news.
  let refused = false;
  const outcome = new Promise<void>((resolve, reject) => {
    let settled = false;
    let received = 0;
    let idle: NodeJS.Timeout | undefined;
    const fail = (reason: MultipartFailure): void => {
      if (settled) return;
      settled = true;
      refused = true;
      clearTimeout(idle);
      source.unpipe(parser);
      parser.removeAllListeners('file');
      for (const writer of writers) writer.destroy();
      reject(failure(reason));
    };
    const touch = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => fail('timeout'), limits.idleTimeoutMs);
    };
    touch();

    source.on('data', (chunk: Buffer) => {
      received += chunk.length;
      touch();
      if (received > limits.maxBytes) fail('too-large');
    });
    // The client went away (or its connection broke) before the body ended.
    source.on('aborted', () => fail('malformed'));
    source.on('error', () => fail('malformed'));
    source.on('close', () => {
      if (!source.readableEnded) fail('malformed');
    });

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) return fail('too-large');
      if (FORBIDDEN_NAMES.has(name)) return fail('malformed');
      add(name, value);
    });
    parser.on('file', (name, stream, info) => {
      if (FORBIDDEN_NAMES.has(name)) {
        stream.resume();
        return fail('malformed');
      }
      // An empty file input is sent as a part with no name and no bytes: no file was chosen.
      const path = join(tempDir, `${randomUUID()}.upload`);
      created.push(path);
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      stream.on('limit', () => fail('too-large'));
      const writer = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      writers.push(writer);
      pending.push({ field: name, name: info.filename ?? '', clientType: info.mimeType, path, size: () => size });
      // A write failing on its own (a full disk) is the server's error, reported as such.
      writes.push(
        pipeline(stream, writer).catch((error: unknown) => {
          if (!refused) throw error;
        }),
      );
    });
    parser.on('partsLimit', () => fail('too-many-parts'));
    parser.on('filesLimit', () => fail('too-many-parts'));
    parser.on('fieldsLimit', () => fail('too-many-parts'));
    parser.on('error', () => fail('malformed'));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      resolve();
    });
    source.pipe(parser);
  });

  try {
    await outcome;
    await Promise.all(writes);
  } catch (error) {
    // Wait for every file to be opened and closed before removing it: removing a file whose
    // open is still under way would let the open create it again afterwards.
    await Promise.allSettled(writers.map((writer) => (writer.closed ? Promise.resolve() : new Promise<void>((done) => writer.once('close', () => done())))));
    await cleanup();
    if (!source.readableEnded) source.resume(); // read and drop the rest, so the answer reaches the client
    throw error;
  }

  const uploads: Upload[] = [];
  for (const file of pending) {
    if (file.name === '' && file.size() === 0) continue;
    const facts = await readFileFacts(file.path);
    const upload = new Upload({ field: file.field, originalName: displayName(file.name), clientType: file.clientType, size: file.size(), path: file.path, ...facts });
    uploads.push(upload);
    add(file.field, upload);
  }
  return { fields, uploads, cleanup };
}

/**
 * Removes temporary uploads older than `olderThanMs` (by modification time) from `tempDir`:
 * what a process that crashed mid-request left behind. Only the parser's own `*.upload` names
 * are touched; other processes' live uploads are younger than any request may run.
 */
export async function sweepStaleUploads(tempDir: string, olderThanMs: number, now: Date): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tempDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.upload')) continue;
    const path = join(tempDir, name);
    try {
      if (now.getTime() - (await stat(path)).mtimeMs <= olderThanMs) continue;
      await rm(path, { force: true });
      removed += 1;
    } catch {
      // Gone already (its request ended): nothing to do.
    }
  }
  return removed;
}
