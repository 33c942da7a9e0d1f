import type { FakeHttpClient } from '../../adapters/outbound-http/fake-http-client.js';

/** The person a fake provider_b (GitHub's shape) signs in, as its API describes them. */
export interface FakePerson {
  id: number;
  email: string | null;
  /** Whether GitHub verified the primary address. */
  verified: boolean;
  name?: string;
}

export const TOKEN_URL = 'https://github.com/login/oauth/access_token';
export const API_URL = 'https://api.github.com';

/**
 * Answers the code exchange and the two profile reads as GitHub does. Each code is accepted
 * once, like a real provider: the code names the person (`code-<id>`, or `code-<id>-<anything>`
 * for a second sign-in), so a test decides who comes back by the code it sends. Tokens are `token-<id>-<n>`, so a test can look for them in
 * logs and pages.
 */
export function fakeProviderB(fake: FakeHttpClient, people: readonly FakePerson[]): { used: Set<string> } {
  const used = new Set<string>();
  let issued = 0;
  fake.on('POST', TOKEN_URL, (request) => {
    const code = new URLSearchParams(request.body ?? '').get('code') ?? '';
    if (used.has(code)) return { status: 200, json: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' } };
    used.add(code);
    const person = people.find((p) => code === `code-${p.id}` || code.startsWith(`code-${p.id}-`));
    if (person === undefined) return { status: 200, json: { error: 'bad_verification_code' } };
    issued += 1;
    return { json: { access_token: `token-${person.id}-${issued}`, token_type: 'bearer', scope: 'read:user,user:email' } };
  });
  const personOf = (authorization: string | undefined) => people.find((p) => authorization?.startsWith(`Bearer token-${p.id}-`) === true);
  fake.on('GET', `${API_URL}/user`, (request) => {
    const person = personOf(request.headers['authorization']);
    return person === undefined ? { status: 401, json: { message: 'Bad credentials' } } : { json: { id: person.id, login: `user${person.id}`, name: person.name ?? null, avatar_url: `https://avatars.example.test/${person.id}` } };
  });
  fake.on('GET', `${API_URL}/user/emails`, (request) => {
    const person = personOf(request.headers['authorization']);
    if (person === undefined) return { status: 401, json: { message: 'Bad credentials' } };
    return { json: person.email === null ? [] : [{ email: person.email, primary: true, verified: person.verified, visibility: 'private' }] };
  });
  return { used };
}
