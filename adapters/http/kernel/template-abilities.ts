/**
 * `can(ability, subject?)` in templates. Gates and policies may be async (they read the
 * database), while nunjucks calls functions synchronously (macros cannot await). So the
 * templates ask, and the views stage answers between renders:
 *
 * 1. the page renders; each `can()` whose answer is not known yet answers `false` and is
 *    written down;
 * 2. if any was written down, the policy is asked all of them (in parallel, once each) and the
 *    page renders again, now with the answers; a newly reached `can()` (inside a block that
 *    was hidden before) starts another round, at most `MAX_ROUNDS` in all.
 *
 * A page whose `can()`s are all answered renders once, and a page without `can()` is not
 * touched at all. The subject is recognised by identity (the same row object the handler
 * passed) or, for strings and numbers, by value; a subject built inside the template anew in
 * each render (`can('x', { id: 1 })`) is never answered and stays `false`: forgetting to pass
 * data closes the door rather than opening it. Guests can do nothing.
 */
import type { RenderOptions, ViewRenderer } from '../../../ports/view-renderer.js';

/** Where the view globals carry this request's abilities (a symbol: templates never see it). */
export const TEMPLATE_ABILITIES = Symbol('fw.templateAbilities');

/** At most this many renders of one page to answer its `can()`s. */
export const MAX_ROUNDS = 4;

const NO_SUBJECT = Symbol('no subject');

export interface Asker {
  can(ability: string, ...resource: [unknown?]): Promise<boolean>;
}

export class TemplateAbilities {
  // Made on the first can(): most pages ask none, and two Maps per request were garbage.
  private answers: Map<string, Map<unknown, boolean>> | null = null;
  private pending: Map<string, Set<unknown>> | null = null;

  constructor(private readonly user: Asker | null) {}

  /** The template function: synchronous, from the answers gathered so far. */
  readonly can = (ability: unknown, ...rest: unknown[]): boolean => {
    if (this.user === null) return false;
    const name = String(ability);
    const subject = rest.length > 0 && !isKeywords(rest[0]) ? rest[0] : NO_SUBJECT;
    const known = this.answers?.get(name)?.get(subject);
    if (known !== undefined) return known;
    const pending = (this.pending ??= new Map<string, Set<unknown>>());
    const waiting = pending.get(name) ?? new Set<unknown>();
    waiting.add(subject);
    pending.set(name, waiting);
    return false;
  };

  hasPending(): boolean {
    return this.pending !== null && this.pending.size > 0;
  }

  /** Asks the policy every question written down since the last time. */
  async answerPending(): Promise<void> {
    const user = this.user;
    const questions = [...(this.pending ?? [])].flatMap(([ability, subjects]) => [...subjects].map((subject) => ({ ability, subject })));
    this.pending = null;
    if (user === null) return;
    const results = await Promise.all(questions.map(({ ability, subject }) => (subject === NO_SUBJECT ? user.can(ability) : user.can(ability, subject))));
    questions.forEach(({ ability, subject }, index) => {
      const all = (this.answers ??= new Map<string, Map<unknown, boolean>>());
      const answers = all.get(ability) ?? new Map<unknown, boolean>();
      answers.set(subject, results[index] === true);
      all.set(ability, answers);
    });
  }
}

function isKeywords(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { __keywords?: unknown }).__keywords === true;
}

/**
 * Renders a page, again while its `can()`s asked questions the policy has not answered yet.
 * `variables` makes the variables of one render: each round renders with new ones, so what a
 * round's template set is not seen by the next.
 */
export async function renderAnsweringAbilities(renderer: ViewRenderer, template: string, variables: () => Record<string | symbol, unknown>, options: RenderOptions): Promise<string> {
  const context = variables();
  const abilities = context[TEMPLATE_ABILITIES];
  let html = await renderer.render(template, context, options);
  if (!(abilities instanceof TemplateAbilities)) return html;
  for (let round = 1; round < MAX_ROUNDS && abilities.hasPending(); round++) {
    await abilities.answerPending();
    html = await renderer.render(template, variables(), options);
  }
  return html;
}
