import { describe, expect, it } from 'vitest';
import { signInPurpose } from '../../../../domain/oauth/sign-in-purpose.js';
import type { SignInPurpose, SignInQuery } from '../../../../domain/oauth/sign-in-purpose.js';

describe('signInPurpose: the rules of oauth.redirect', () => {
  it.each<[string, SignInQuery, number | null, SignInPurpose]>([
    ['rule 1: a guest signs in', {}, null, { intent: 'login', userId: null, remember: false }],
    ["rule 3: ?remember=1 makes a guest's login last as with 'remember me'", { remember: '1' }, null, { intent: 'login', userId: null, remember: true }],
    ['rule 1: a logged-in user links', {}, 4, { intent: 'link', userId: 4, remember: false }],
    ['rule 2: ?intent=confirm makes a logged-in user confirm instead of linking', { intent: 'confirm' }, 4, { intent: 'confirm', userId: 4, remember: false }],
    ['a guest has nothing to confirm: ?intent=confirm is a plain login', { intent: 'confirm', remember: '1' }, null, { intent: 'login', userId: null, remember: true }],
    ["remember applies to guests only: a user's session keeps its lifetime", { remember: '1' }, 4, { intent: 'link', userId: 4, remember: false }],
    ['remember=true is not the value 1', { remember: 'true' }, null, { intent: 'login', userId: null, remember: false }],
    ['a repeated remember counts as absent', { remember: ['1', '1'] }, null, { intent: 'login', userId: null, remember: false }],
    ['an unknown intent counts as absent', { intent: 'admin' }, 4, { intent: 'link', userId: 4, remember: false }],
    ['intent=CONFIRM is not confirm', { intent: 'CONFIRM' }, 4, { intent: 'link', userId: 4, remember: false }],
    ['a repeated intent counts as absent', { intent: ['confirm', 'confirm'] }, 4, { intent: 'link', userId: 4, remember: false }],
  ])('%s', (_rule, query, visitor, expected) => {
    expect(signInPurpose(query, visitor)).toEqual(expected);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a user id of %s (a programmer error)', (id) => {
    expect(() => signInPurpose({}, id)).toThrow(TypeError);
  });
});
