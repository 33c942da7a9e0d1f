/**
 * Plays the person at the dev identity provider (oidc-provider's dev interactions) over plain
 * HTTP: follows the authorization URL, submits the login form with `login`, approves the
 * consent form when one is shown, and stops at the redirect back to the app. Returns that
 * callback URL (code, state, iss) without requesting it: the test decides what to do with it.
 */
export async function loginAtDevProvider(authorizationUrl: string, login: string): Promise<URL> {
  const origin = new URL(authorizationUrl).origin;
  const cookies = new CookieJar();
  let response = await send(cookies, new URL(authorizationUrl));
  // login form, consent form, and the redirects between them: a handful of steps.
  for (let step = 0; step < 12; step += 1) {
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      const next = new URL(location, response.url);
      if (next.origin !== origin) return next;
      response = await send(cookies, next);
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`dev provider answered ${response.status} at ${response.url}: ${text(page)}`);
    const form = readForm(page, response.url);
    const fields = new URLSearchParams({ prompt: form.prompt });
    if (form.prompt === 'login') {
      fields.set('login', login);
      fields.set('password', 'any');
    }
    response = await send(cookies, form.action, fields);
  }
  throw new Error('dev provider: no redirect back to the app after 12 steps');
}

async function send(cookies: CookieJar, url: URL, form?: URLSearchParams): Promise<Response> {
  const headers: Record<string, string> = { cookie: cookies.header() };
  if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(url, { method: form === undefined ? 'GET' : 'POST', headers, body: form ?? null, redirect: 'manual' });
  cookies.store(response.headers.getSetCookie());
  // `response.url` is empty for a fetch without redirects in some runtimes; keep the URL asked for.
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}

function readForm(page: string, pageUrl: string): { action: URL; prompt: string } {
  const action = /<form[^>]*\saction="([^"]+)"/u.exec(page)?.[1];
  const prompt = /name="prompt"\s+value="([^"]+)"/u.exec(page)?.[1];
  if (action === undefined || prompt === undefined) throw new Error(`dev provider: no login or consent form at ${pageUrl}: ${text(page)}`);
  return { action: new URL(action.replaceAll('&amp;', '&'), pageUrl), prompt };
}

/** An HTML page as one short line, for an error message. */
function text(page: string): string {
  return page
    .replace(/<[^>]+>/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim()
    .slice(0, 300);
}

/** Enough of a cookie jar for one host: paths are ignored, a cleared cookie is forgotten. */
class CookieJar {
  private readonly values = new Map<string, string>();

  store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired || value === '') this.values.delete(name);
      else this.values.set(name, value);
    }
  }

  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}
