import type { RequestContext } from '../kernel/request-context.js';
import { MisuseError } from '../../../domain/shared/errors.js';

/**
 * A card another module adds to the account page (the social-login card of the OAuth module).
 * The page wraps its template in `<section class="fw-card" id="account-<name>"
 * aria-labelledby="account-<name>-title">`, so the template starts with `<h2
 * id="account-<name>-title">`. Included in the page, it sees the page's variables (`auth`,
 * `csrf_field()`, `route()`, `error(field, bag)`…) and its own `section.data`. Forms in it post
 * to the module's own routes; an error bag named after the section keeps their errors apart.
 */
export interface AccountSection {
  /** Unique on the page; the card's element id is `account-<name>`. Lower case, digits and `-`. */
  readonly name: string;
  /** A template name, e.g. `fw/oauth/account-section.html` (replaceable from `resources/views/`). */
  readonly template: string;
  /**
   * What the template needs for the signed-in user, computed for each showing of the page; null
   * leaves the card out this time (the social-login card while no provider has credentials).
   */
  data?(ctx: RequestContext): Record<string, unknown> | null | Promise<Record<string, unknown> | null>;
}

/** What the page's template receives for one section. */
export interface RenderedSection {
  name: string;
  template: string;
  data: Record<string, unknown>;
}

const NAME = /^[a-z][a-z0-9-]{0,63}$/u;

/** The cards the account page shows itself: another section by one of these names would clash. */
const BUILT_IN = new Set(['profile', 'password', 'other-devices', 'delete']);

/**
 * The sections of the account page, in the order they were added. They appear after the
 * password card and before 'Log out other devices' and 'Delete account', which stay last.
 */
export class AccountSections {
  readonly #sections: AccountSection[] = [];

  add(section: AccountSection): this {
    if (!NAME.test(section.name)) throw new MisuseError('auth.bad-section-name', `An account section's name is lower case letters, digits and '-', got '${section.name}'`);
    if (BUILT_IN.has(section.name) || this.#sections.some((s) => s.name === section.name)) {
      throw new MisuseError('auth.section-twice', `The account page already has a section named '${section.name}'`);
    }
    if (section.template.trim() === '') throw new MisuseError('auth.section-without-template', `The account section '${section.name}' needs a template`);
    this.#sections.push(section);
    return this;
  }

  list(): readonly AccountSection[] {
    return [...this.#sections];
  }

  /** Each section with its data for this request, one after another in order. */
  async render(ctx: RequestContext): Promise<RenderedSection[]> {
    const rendered: RenderedSection[] = [];
    for (const section of this.#sections) {
      const data = section.data === undefined ? {} : await section.data(ctx);
      if (data !== null) rendered.push({ name: section.name, template: section.template, data });
    }
    return rendered;
  }
}
