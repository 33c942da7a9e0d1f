import { describe, expect, it } from 'vitest';
import { AccountSections } from '../../../../adapters/http/auth/account-sections.js';
import type { RequestContext } from '../../../../adapters/http/kernel/request-context.js';

describe('AccountSections', () => {
  it('renders the sections in the order added, each with its data for the request', async () => {
    const sections = new AccountSections()
      .add({ name: 'linked', template: 'oauth/linked.html', data: () => Promise.resolve({ providers: ['a'] }) })
      .add({ name: 'api-tokens', template: 'tokens.html' });
    expect(await sections.render({} as RequestContext)).toEqual([
      { name: 'linked', template: 'oauth/linked.html', data: { providers: ['a'] } },
      { name: 'api-tokens', template: 'tokens.html', data: {} },
    ]);
  });

  it('leaves out a section whose data is null for this request', async () => {
    const sections = new AccountSections()
      .add({ name: 'linked', template: 'oauth/linked.html', data: () => null })
      .add({ name: 'api-tokens', template: 'tokens.html' });
    expect(await sections.render({} as RequestContext)).toEqual([{ name: 'api-tokens', template: 'tokens.html', data: {} }]);
  });

  it.each(['profile', 'delete', 'Linked', 'two words', ''])('refuses the name %j', (name) => {
    expect(() => new AccountSections().add({ name, template: 'x.html' })).toThrow(TypeError);
  });

  it('refuses a second section of one name, and one without a template', () => {
    const sections = new AccountSections().add({ name: 'linked', template: 'x.html' });
    expect(() => sections.add({ name: 'linked', template: 'y.html' })).toThrow(/already has a section named 'linked'/u);
    expect(() => sections.add({ name: 'other', template: ' ' })).toThrow(TypeError);
  });
});
