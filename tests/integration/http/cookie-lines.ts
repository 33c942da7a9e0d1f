import type { TestResponse } from '../../../composition/testing.js';

/** One `Set-Cookie` line, taken apart: the value and the attributes by lower-cased name. */
export interface SetCookieLine {
  name: string;
  value: string;
  /** Attribute name (lower case) → its value, or '' for a flag such as `HttpOnly`. */
  attributes: Map<string, string>;
  raw: string;
}

export function setCookies(response: TestResponse): SetCookieLine[] {
  return response.headers.getSetCookie().map((raw) => {
    const [pair = '', ...parts] = raw.split(';');
    const equals = pair.indexOf('=');
    const attributes = new Map<string, string>();
    for (const part of parts) {
      const at = part.indexOf('=');
      const name = (at === -1 ? part : part.slice(0, at)).trim().toLowerCase();
      if (name !== '') attributes.set(name, at === -1 ? '' : part.slice(at + 1).trim());
    }
    return { name: pair.slice(0, equals).trim(), value: pair.slice(equals + 1).trim(), attributes, raw };
  });
}

/** The `Set-Cookie` line of `name`; fails the test when the response has none. */
export function setCookie(response: TestResponse, name: string): SetCookieLine {
  const line = setCookies(response).find((cookie) => cookie.name === name);
  if (line === undefined) throw new Error(`The response sets no cookie ${name}: ${response.headers.getSetCookie().join(' | ')}`);
  return line;
}

/** The sealed text with one character in its middle changed, still a valid cookie value. */
export function flipOneCharacter(sealed: string, at = Math.floor(sealed.length / 2)): string {
  const current = sealed[at];
  const replacement = current === 'A' ? 'B' : 'A';
  return `${sealed.slice(0, at)}${replacement}${sealed.slice(at + 1)}`;
}
