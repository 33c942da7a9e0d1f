import { connect } from 'node:net';

/**
 * A bare HTTP/1.1 client over node:net, for attacks that node:http would refuse to send or
 * would tidy up: several `Cookie` or `Host` lines, header values with any latin1 byte, a raw
 * request target (`%2f` vs `%2F`, fragments, duplicate query parameters) exactly as written.
 * One request per connection (`Connection: close`), so concurrent calls never share a socket.
 */
export interface RawRequest {
  method?: string;
  /** The request target exactly as sent, e.g. `/files/a%2Fb?expires=1&signature=…`. */
  target: string;
  /** Header lines in order; a name may repeat. A `host` line is added unless one is given. */
  headers?: readonly (readonly [string, string])[];
  body?: string;
}

export interface RawResponse {
  status: number;
  /** Header values by lower-cased name, in the order received. */
  headers: Map<string, string[]>;
  text: string;
  /** The first value of a header, or null. */
  header(name: string): string | null;
  json<T = unknown>(): T;
}

const TIMEOUT_MS = 10_000;

export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const headers = [...(request.headers ?? [])];
  if (!headers.some(([name]) => name.toLowerCase() === 'host')) headers.unshift(['host', `${hostname}:${port}`]);
  headers.push(['connection', 'close']);
  if (request.body !== undefined) headers.push(['content-length', String(Buffer.byteLength(request.body, 'latin1'))]);
  const head = `${request.method ?? 'GET'} ${request.target} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;

  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(Buffer.from(head + (request.body ?? ''), 'latin1')));
    const chunks: Buffer[] = [];
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${TIMEOUT_MS} ms to ${request.method ?? 'GET'} ${request.target.slice(0, 80)}`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function parseResponse(raw: Buffer): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`not an HTTP response: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/u.exec(statusLine);
  if (status === null) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  let body = raw.subarray(end + 4);
  if ((headers.get('transfer-encoding') ?? []).some((value) => /chunked/iu.test(value))) body = dechunk(body);
  const text = body.toString('utf8');
  return {
    status: Number(status[1]),
    headers,
    text,
    header: (name) => headers.get(name.toLowerCase())?.[0] ?? null,
    json: <T>() => JSON.parse(text) as T,
  };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** The `name=value` pairs of a response's `Set-Cookie` lines (attributes dropped). */
export function setCookieValues(response: RawResponse, name: string): string[] {
  return (response.headers.get('set-cookie') ?? [])
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => pair.slice(0, pair.indexOf('=')).trim() === name)
    .map((pair) => pair.slice(pair.indexOf('=') + 1).trim());
}
