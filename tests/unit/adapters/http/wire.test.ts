import { describe, expect, it } from 'vitest';
import { SetCookie } from '../../../../adapters/http/kernel/cookies.js';
import { Header, HxHeader, combine, html, json, status, text } from '../../../../adapters/http/kernel/replies.js';
import type { Reply } from '../../../../adapters/http/kernel/replies.js';
import { toWire, toWireNow } from '../../../../adapters/http/kernel/wire.js';

const sealer = {
  seal: (name: string, value: unknown) => Promise.resolve(`sealed(${name}:${JSON.stringify(value)})`),
  unseal: () => Promise.resolve(undefined),
};
const options = { sealer, https: true, now: () => 1_700_000_000_000 };

// `toWireNow` is the transports' way for replies with nothing to seal: it must give exactly
// what `toWire` gives, and decline (null) whatever needs the sealer.
describe('toWireNow: toWire without waiting', () => {
  const replies: [string, Reply][] = [
    ['a page', html('<p>hi</p>')],
    ['JSON with a status', json({ a: 1 }, 201)],
    ['an empty status', status(204)],
    ['a string', 'plain'],
    ['null', null],
    [
      'a page with cookies and headers',
      combine(
        text('hello'),
        SetCookie.make('theme', 'dark').maxAge(60),
        SetCookie.remove('old'),
        Header.make('vary', 'Accept-Language'),
        Header.make('Vary', 'Cookie'),
        HxHeader.trigger({ saved: 'café' }),
      ),
    ],
    ['a removal of a sealed cookie', combine(text('bye'), SetCookie.remove('fw_session'))],
  ];

  it.each(replies)('answers %s as toWire does', async (_name, reply) => {
    const now = toWireNow(reply, options);
    expect(now).not.toBeNull();
    expect(now).toEqual(await toWire(reply, options));
  });

  it('leaves a cookie to seal to toWire', async () => {
    const reply = combine(text('hi'), SetCookie.encrypted('prefs', { a: 1 }));
    expect(toWireNow(reply, options)).toBeNull();
    expect((await toWire(reply, options)).cookies[0]).toMatch(/^prefs=sealed\(prefs:\{"a":1\}\); Secure; HttpOnly/u);
  });
});
