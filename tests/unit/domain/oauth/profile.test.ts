import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Profile } from '../../../../domain/oauth/profile.js';

describe('Profile: what a provider said, cleaned once', () => {
  it('builds like the spec: Profile.create(id).email(address, verified).name(name)', () => {
    const profile = Profile.create('12345').email('Ann@Example.com', true).name('Ann Lee').picture('https://img.example/a.png');
    expect({ ...profile }).toEqual({
      providerUserId: '12345',
      emailAddress: 'ann@example.com',
      emailVerified: true,
      displayName: 'Ann Lee',
      pictureUrl: 'https://img.example/a.png',
    });
  });

  it('is immutable: each call returns a new value', () => {
    const bare = Profile.create('1');
    const named = bare.name('Ann');
    expect(bare.displayName).toBeNull();
    expect(named.displayName).toBe('Ann');
    expect(Object.isFrozen(named)).toBe(true);
  });

  it.each<[string, string | null, boolean, string | null, boolean]>([
    ['no address', null, true, null, false],
    ['an unverified address', 'ann@example.com', false, 'ann@example.com', false],
    ['a malformed address counts as none, never verified', 'ann at example', true, null, false],
    ['a verification claim that is not the boolean true', 'ann@example.com', 'true' as unknown as boolean, 'ann@example.com', false],
  ])('%s', (_what, address, verified, email, isVerified) => {
    const profile = Profile.create('1').email(address, verified);
    expect([profile.emailAddress, profile.emailVerified]).toEqual([email, isVerified]);
  });

  it.each([
    ['an empty id', ''],
    ['an id with spaces at the ends', ' 12 '],
    ['an id with a newline', '1\n2'],
    ['an id of 256 characters', 'x'.repeat(256)],
  ])('refuses %s (a bad provider answer: the sign-in fails)', (_what, id) => {
    expect(() => Profile.create(id)).toThrow(TypeError);
  });

  it.each<[string, string | null, string | null]>([
    ['a blank name is none', '   ', null],
    ['control characters become spaces', 'Ann\u0000Lee\n', 'Ann Lee'],
    ['a long name is cut to 255 characters', 'é'.repeat(300), 'é'.repeat(255)],
  ])('%s', (_what, name, expected) => {
    expect(Profile.create('1').name(name).displayName).toBe(expected);
  });

  it.each<[string, string | null]>([
    ['javascript:alert(1)', null],
    ['data:image/png;base64,AAAA', null],
    ['not a url', null],
    ['http://img.example/a.png', 'http://img.example/a.png'],
    [`https://img.example/${'a'.repeat(2100)}`, null],
  ])('keeps a picture URL %s only as http(s)', (url, expected) => {
    expect(Profile.create('1').picture(url).pictureUrl).toBe(expected);
  });

  it('never throws on any name or address a provider could send', () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: null }), fc.option(fc.string(), { nil: null }), fc.boolean(), (name, address, verified) => {
        const profile = Profile.create('1').name(name).email(address, verified);
        if (profile.emailVerified) expect(profile.emailAddress).not.toBeNull();
        if (profile.displayName !== null) expect(profile.displayName.trim()).toBe(profile.displayName);
      }),
    );
  });
});
