import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import Iron from '@hapi/iron';
import { describe, expect, it } from 'vitest';
import { CookieSealer } from '../../../../adapters/http/cookie-sealer.js';
import { CryptoRandomSource } from '../../../../adapters/random/crypto-random-source.js';

const keys = { encryption: Buffer.alloc(32, 1), integrity: Buffer.alloc(32, 2) };
const password = { id: 'k1', ...keys };
const FIXED_IV = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const VALUES: unknown[] = [{ count: 1 }, { values: { name: 'Ada Lovelace', tags: ['é', '✓', 'a"b'] }, token: 'x'.repeat(43), lastActivityAt: 1_700_000_000_000 }, 'text', 42, null, []];

/** Every part of a sealed value changed in turn (its last character flipped). */
function tamperings(sealed: string): string[] {
  const parts = sealed.split('*');
  return parts.flatMap((part, index) => {
    if (part === '') return [];
    const last = part.at(-1) === 'A' ? 'B' : 'A';
    return [parts.map((other, at) => (at === index ? `${part.slice(0, -1)}${last}` : other)).join('*')];
  });
}

describe('CookieSealer: iron\'s format, sealed and opened without iron\'s generic path', () => {
  it('writes byte for byte what iron writes under the same IV', async () => {
    const sealer = new CookieSealer(keys, { bytes: () => new Uint8Array(FIXED_IV) });
    for (const value of VALUES) {
      const encryption = { ...Iron.defaults.encryption, iv: FIXED_IV };
      const ironSealed = await Iron.seal({ n: 'fw_session', v: value }, password, { ...Iron.defaults, encryption });
      expect(await sealer.seal('fw_session', value)).toBe(ironSealed);
    }
  });

  // One cipher serves every seal of a sealer (its chain carried from one value to the next):
  // each value must still come out as a fresh cipher under its own IV writes it, whatever
  // came before, lengths on and off AES's 16-byte blocks alike.
  it('writes what iron writes for every value of a long run, each under its own IV', async () => {
    let iv = Buffer.alloc(16);
    const sealer = new CookieSealer(keys, { bytes: () => new Uint8Array(iv) });
    for (let run = 0; run < 60; run++) {
      iv = randomBytes(16);
      // `{"n":"s","v":"…"}` is 16 characters around the text: lengths 0 to 59 cross every block boundary.
      const value = 'é✓x'.repeat(20).slice(0, run);
      const encryption = { ...Iron.defaults.encryption, iv };
      const ironSealed = await Iron.seal({ n: 's', v: value }, password, { ...Iron.defaults, encryption });
      expect(await sealer.seal('s', value)).toBe(ironSealed);
    }
  });

  it('opens what iron sealed, and iron opens what it sealed', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    for (const value of VALUES) {
      const ironSealed = await Iron.seal({ n: 'fw_session', v: value }, password, Iron.defaults);
      expect(await sealer.unseal('fw_session', ironSealed)).toEqual(value);
      const own = await sealer.seal('fw_session', value);
      expect(await Iron.unseal(own, { k1: password }, Iron.defaults)).toEqual({ n: 'fw_session', v: value });
    }
  });

  it('opens nothing tampered, sealed for another name, under other keys or another key id', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    const sealed = await sealer.seal('fw_session', { count: 1 });
    for (const changed of tamperings(sealed)) expect(await sealer.unseal('fw_session', changed), changed).toBeUndefined();
    expect(await sealer.unseal('prefs', sealed)).toBeUndefined();
    const stranger = new CookieSealer({ encryption: Buffer.alloc(32, 3), integrity: Buffer.alloc(32, 4) }, new CryptoRandomSource());
    expect(await stranger.unseal('fw_session', sealed)).toBeUndefined();
    const otherId = await Iron.seal({ n: 'fw_session', v: 1 }, { ...password, id: 'k2' }, Iron.defaults);
    expect(await sealer.unseal('fw_session', otherId)).toBeUndefined();
    // The right HMAC over a ciphertext that is not AES-CBC of anything (bad padding).
    const [prefix, id, salt, iv, , expiration] = sealed.split('*');
    const junk = Buffer.alloc(16, 7).toString('base64url');
    const macBase = [prefix, id, salt, iv, junk, expiration].join('*');
    const hmac = (await Iron.hmacWithPassword(keys.integrity, Iron.defaults.integrity, macBase)).digest;
    expect(await sealer.unseal('fw_session', `${macBase}**${hmac}`)).toBeUndefined();
  });

  it('leaves what it does not write itself to iron: expirations, and JSON Bourne would refuse', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    const living = await Iron.seal({ n: 'fw_session', v: 'soon' }, password, { ...Iron.defaults, ttl: 60_000 });
    expect(await sealer.unseal('fw_session', living)).toBe('soon');
    const expired = await Iron.seal({ n: 'fw_session', v: 'gone' }, password, { ...Iron.defaults, ttl: 1, localtimeOffsetMsec: -120_000 });
    expect(await sealer.unseal('fw_session', expired)).toBeUndefined();
    // An own "__proto__" key, sealed with the right keys: iron's Bourne refuses it, so does this.
    const poisoned = await Iron.seal(JSON.parse('{"n":"fw_session","v":{"__proto__":{"admin":true}}}') as object, password, Iron.defaults);
    expect(await sealer.unseal('fw_session', poisoned)).toBeUndefined();
    const escaped = await Iron.seal(JSON.parse('{"n":"fw_session","v":{"\\u005f_proto__":{"admin":true}}}') as object, password, Iron.defaults);
    expect(await sealer.unseal('fw_session', escaped)).toBeUndefined();
    // A plain word that merely looks suspect still opens (through iron).
    expect(await sealer.unseal('fw_session', await sealer.seal('fw_session', { note: 'constructor' }))).toEqual({ note: 'constructor' });
  });

  it('opens a value it opened before again, and still nothing tampered, renamed or foreign beside it', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    const sealed = await sealer.seal('fw_session', { userId: 7, token: 't'.repeat(43) });
    expect(await sealer.unseal('fw_session', sealed)).toEqual({ userId: 7, token: 't'.repeat(43) });
    // Remembered now: every byte still counts, and the name it was sealed for too.
    for (const changed of tamperings(sealed)) expect(await sealer.unseal('fw_session', changed), changed).toBeUndefined();
    expect(await sealer.unseal('prefs', sealed)).toBeUndefined();
    expect(await sealer.unseal('fw_session', `${sealed} `)).toBeUndefined();
    expect(await sealer.unseal('fw_session', sealed)).toEqual({ userId: 7, token: 't'.repeat(43) });
    // Another app's sealer (other keys) never opens it, however often this one did.
    const stranger = new CookieSealer({ encryption: Buffer.alloc(32, 3), integrity: Buffer.alloc(32, 4) }, new CryptoRandomSource());
    expect(await stranger.unseal('fw_session', sealed)).toBeUndefined();
  });

  it('hands out a fresh copy each time: changing one opened value changes nothing for the next request', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    const sealed = await sealer.seal('fw_session', { values: { cart: [1, 2] } });
    const first = (await sealer.unseal('fw_session', sealed)) as { values: { cart: number[] } };
    first.values.cart.push(3);
    const second = (await sealer.unseal('fw_session', sealed)) as { values: { cart: number[] } };
    expect(second).toEqual({ values: { cart: [1, 2] } });
    expect(second).not.toBe(first);
  });

  it('keeps opening every value when more values were opened than it remembers', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    const sealed = await Promise.all(Array.from({ length: 300 }, (_, n) => sealer.seal('fw_session', { n })));
    for (const [n, value] of sealed.entries()) expect(await sealer.unseal('fw_session', value)).toEqual({ n });
    for (const [n, value] of sealed.entries()) expect(await sealer.unseal('fw_session', value)).toEqual({ n });
    for (const changed of tamperings(sealed[0] ?? '')) expect(await sealer.unseal('fw_session', changed)).toBeUndefined();
  });

  // One decipher opens every value of a sealer (its chain carried from one value to the next):
  // each must still open as a fresh decipher under its own IV opens it, whatever came before.
  it('opens every value of a long run iron sealed, each under its own IV, whatever was opened before', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    const runs = Array.from({ length: 60 }, (_, run) => 'é✓x'.repeat(20).slice(0, run));
    const sealed = await Promise.all(runs.map((value) => Iron.seal({ n: 's', v: value }, password, Iron.defaults)));
    for (const [run, value] of sealed.entries()) {
      expect(await sealer.unseal('s', value)).toBe(runs[run]);
      // A tampered value between two good ones moves the chain on (or not) without changing what opens next.
      for (const changed of tamperings(value)) expect(await sealer.unseal('s', changed)).toBeUndefined();
    }
  });

  // The HMAC is right, so only the decryption can refuse these: as OpenSSL's final does.
  it('opens nothing whose padding is not PKCS#7 or whose ciphertext is not whole blocks, though its HMAC is right', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    const withMac = (iv: Buffer, encrypted: Buffer): string => {
      const base = `Fe26.2*k1**${iv.toString('base64url')}*${encrypted.toString('base64url')}*`;
      return `${base}**${createHmac('sha256', keys.integrity).update(base).digest('base64url')}`;
    };
    const encryptRaw = (iv: Buffer, plain: Buffer): Buffer => {
      const cipher = createCipheriv('aes-256-cbc', keys.encryption, iv).setAutoPadding(false);
      return Buffer.concat([cipher.update(plain), cipher.final()]);
    };
    const json = Buffer.from('{"n":"s","v":"abcdefghijklmn"}');
    expect(json.length).toBe(30);
    const iv = randomBytes(16);
    const paddedWith = (bytes: number[]): Buffer => Buffer.concat([json, Buffer.from(bytes)]);
    // The right padding opens (so the cases below differ from it in their padding only).
    expect(await sealer.unseal('s', withMac(iv, encryptRaw(iv, paddedWith([2, 2]))))).toBe('abcdefghijklmn');
    for (const bad of [[0, 0], [1, 2], [2, 1], [3, 3], [17, 17]]) expect(await sealer.unseal('s', withMac(iv, encryptRaw(iv, paddedWith(bad)))), String(bad)).toBeUndefined();
    // A whole block of padding (16 × 16) opens; 32 bytes of it does not.
    const sixteen = Buffer.concat([Buffer.from('{"n":"s","v":""}'), Buffer.alloc(16, 16)]);
    expect(await sealer.unseal('s', withMac(iv, encryptRaw(iv, sixteen)))).toBe('');
    expect(await sealer.unseal('s', withMac(iv, encryptRaw(iv, Buffer.concat([Buffer.from('{"n":"s","v":""}'), Buffer.alloc(32, 32)]))))).toBeUndefined();
    expect(await sealer.unseal('s', withMac(iv, encryptRaw(iv, paddedWith([2, 2])).subarray(0, 17)))).toBeUndefined();
    expect(await sealer.unseal('s', withMac(iv, Buffer.alloc(0)))).toBeUndefined();
    expect(await sealer.unseal('s', withMac(iv.subarray(0, 8), encryptRaw(iv, paddedWith([2, 2]))))).toBeUndefined();
    // And the sealer still opens what it seals afterwards.
    expect(await sealer.unseal('s', await sealer.seal('s', { after: true }))).toEqual({ after: true });
  });

  it('reports a value JSON cannot hold as iron does', async () => {
    const sealer = new CookieSealer(keys, new CryptoRandomSource());
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    await expect(sealer.seal('fw_session', cycle)).rejects.toThrow(/Failed to stringify object/u);
  });
});
