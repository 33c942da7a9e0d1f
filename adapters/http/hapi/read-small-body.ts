import type { IncomingMessage } from 'node:http';

/**
 * The whole body of a request whose Content-Length is small (page-first.ts checked it), as
 * hapi's payload step collects it (`Buffer.concat` of the chunks): `done(bytes)` once it has all
 * come, or `done(null)` when it has not within `timeoutMs` (hapi's route payload timeout; false:
 * no limit). Node's parser ends the body at the declared length; a client that goes away first
 * ends in neither, and the response's `close` says so.
 */
export function readSmallBody(request: IncomingMessage, timeoutMs: number | false, done: (bytes: Buffer | null) => void): void {
  const chunks: Buffer[] = [];
  let length = 0;
  const onData = (chunk: Buffer): void => {
    chunks.push(chunk);
    length += chunk.length;
  };
  const timer =
    timeoutMs === false
      ? null
      : setTimeout(() => {
          request.off('data', onData);
          request.off('end', onEnd);
          done(null);
        }, timeoutMs);
  const onEnd = (): void => {
    if (timer !== null) clearTimeout(timer);
    done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length));
  };
  request.on('data', onData);
  request.once('end', onEnd);
}
