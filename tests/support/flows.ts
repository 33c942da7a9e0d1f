import { expect } from 'vitest';
import type { TestClient, TestResponse, TestServer } from '../../composition/testing.js';
import { json } from '../../composition/index.js';
import type { Handler } from '../../composition/index.js';
import { TOKENS } from '../../composition/tokens.js';

/**
 * What a person does in a browser to sign in, register or sign in with a provider, written once
 * for every integration test over a real socket. Each flow opens the form's page first, as a
 * browser does (the page starts the session and carries the CSRF token the client sends back),
 * and returns the answers so a test asserts what it is about.
 */

/** The password the builders give a user (`aUser`), so a flow signs in without repeating it. */
export const PASSWORD = 'correct horse battery';

/** Opens `/login` and submits it; the answer to the POST (303 to the next page, or back). */
export async function signIn(client: TestClient, email: string, password: string = PASSWORD, form: Record<string, string> = {}): Promise<TestResponse> {
  await client.get('/login');
  return client.post('/login', { form: { email, password, ...form } });
}

/** A new browser of `server`, signed in as `email`; fails the test when the login is refused. */
export async function signedIn(server: TestServer, email: string, password: string = PASSWORD): Promise<TestClient> {
  const client = server.client();
  const answer = await signIn(client, email, password);
  expect(answer.status, `POST /login as ${email}`).toBe(303);
  return client;
}

export interface Registration {
  name?: string;
  email: string;
  password?: string;
  /** `password` when omitted. */
  confirmation?: string;
}

/** Opens `/register` and submits it; the answer to the POST. */
export async function register(client: TestClient, person: Registration): Promise<TestResponse> {
  const password = person.password ?? PASSWORD;
  await client.get('/register');
  return client.post('/register', {
    form: { name: person.name ?? 'Pass Word', email: person.email, password, password_confirmation: person.confirmation ?? password },
  });
}

/** GET `oauth.redirect`: its answer, the authorization URL it points at and the `state` in it. */
export async function startSocialSignIn(client: TestClient, provider: string, query = ''): Promise<{ response: TestResponse; authorize: URL; state: string }> {
  const response = await client.get(`/auth/${provider}/redirect${query}`);
  expect(response.status, `oauth.redirect for ${provider}`).toBe(303);
  const authorize = new URL(response.location ?? '');
  return { response, authorize, state: authorize.searchParams.get('state') ?? '' };
}

/**
 * The spec's recipe for a provider that answers with a code it was told (the fake providers):
 * GET the redirect, read `state` from `location`, GET the callback with the code. `back` is the
 * callback's answer.
 */
export async function socialSignIn(client: TestClient, provider: string, code: string, query = ''): Promise<{ response: TestResponse; authorize: URL; state: string; back: TestResponse }> {
  const started = await startSocialSignIn(client, provider, query);
  const back = await client.get(`/auth/${provider}/callback?code=${encodeURIComponent(code)}&state=${started.state}`);
  return { ...started, back };
}

/** The page a redirect leads to (where its toast or errors show). */
export async function follow(client: TestClient, redirect: TestResponse | string | null): Promise<string> {
  const location = typeof redirect === 'string' || redirect === null ? redirect : redirect.location;
  return (await client.get(location ?? '/')).text;
}

/** Another browser holding a copy of this one's cookies (a stolen cookie, or one of N tabs racing). */
export function copyOf(server: TestServer, client: TestClient): TestClient {
  const copy = server.client();
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

/**
 * A test app's `POST /test-login/{id}` handler: signs the user with that id in without a form, for
 * tests about what a signed-in user sees rather than about logging in (404 for no such user).
 */
export const testLogin: Handler = async (ctx) => {
  const user = await ctx.service(TOKENS.userRepository).findById(ctx.params.int('id'));
  if (user === null) return json({ error: 'no user' }, 404);
  ctx.auth.login(user);
  return json({ ok: true });
};
