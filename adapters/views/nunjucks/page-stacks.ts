/**
 * The spec's stacks (`stack(name)`, `push(name, once=key)`, `prepend(name)`) and `once(key)`,
 * one set per render.
 *
 * A layout prints `stack('head')` in its head, which nunjucks renders BEFORE the child's
 * content block that pushes to it (and before macros imported and called in that block). So
 * `stack()` prints a placeholder, a comment carrying a random token of this render, and
 * `fill()` replaces every placeholder by its stack once the whole page is rendered. Visitor
 * text cannot forge a placeholder: autoescaping turns its `<` into `&lt;`, and the token is
 * unknown to it anyway.
 *
 * `push` and `prepend` take their content either from a `{% call push('scripts') %}…{% endcall %}`
 * body (nunjucks hands the body over as the `caller` keyword) or as a second argument (escaped
 * unless marked safe). They print nothing where they are called.
 */
import { randomUUID } from 'node:crypto';
import nunjucks from 'nunjucks';
import { FrameworkError } from '../../../domain/shared/errors.js';

type Keywords = Record<string, unknown> & { __keywords?: true };

interface StackContent {
  before: string[];
  after: string[];
}

export class PageStacks {
  // Made when first needed: most pages print no stack() and call neither push() nor once(),
  // and a Map, two Sets and a token per render were ~0.8 KB of a small page's garbage.
  /** The placeholders' opening, with this render's token; '' until the page prints a stack(). */
  private opening = '';
  private stacks: Map<string, StackContent> | null = null;
  private onceKeys: Set<string> | null = null;
  private pushedOnce: Set<string> | null = null;

  /**
   * Puts the functions templates call (`stack`, `push`, `prepend`, `once`) into a render's
   * variables; a variable of the same name the caller passed wins, as it always did.
   */
  install(variables: Record<string, unknown>): void {
    variables['stack'] ??= (name: unknown) => {
      // randomUUID draws from Node's pooled entropy: a per-render randomBytes() call cost ~1 % of
      // a small page (profile in docs/performance.md), and the token only has to be unguessable.
      if (this.opening === '') this.opening = `<!--fw-stack:${randomUUID()}:`;
      return new nunjucks.runtime.SafeString(this.placeholder(String(name)));
    };
    variables['push'] ??= (...args: unknown[]) => this.add('after', args);
    variables['prepend'] ??= (...args: unknown[]) => this.add('before', args);
    variables['once'] ??= (key: unknown) => {
      const text = String(key);
      const seen = (this.onceKeys ??= new Set<string>());
      if (seen.has(text)) return false;
      seen.add(text);
      return true;
    };
  }

  /**
   * The rendered page with each `stack(name)` placeholder replaced by what was pushed to it.
   * A scan with indexOf: a RegExp built per render (its token differs each time) was compiled
   * and interpreted anew on every page, 4-6 % of a small page's CPU time.
   */
  fill(html: string): string {
    // No stack() printed, no placeholder (visitor text cannot carry this render's token): a
    // page without one is not scanned (the scan flattened a large page's string, 9 % of a kit form).
    if (this.opening === '') return html;
    let at = html.indexOf(this.opening);
    if (at < 0) return html;
    let out = '';
    let copied = 0;
    while (at >= 0) {
      const nameStart = at + this.opening.length;
      const close = html.indexOf('-->', nameStart);
      if (close < 0) break;
      out += html.slice(copied, at) + this.content(decodeURIComponent(html.slice(nameStart, close)));
      copied = close + 3;
      at = html.indexOf(this.opening, copied);
    }
    return out + html.slice(copied);
  }

  private content(name: string): string {
    const content = this.stacks?.get(name);
    return content === undefined ? '' : [...content.before].reverse().join('') + content.after.join('');
  }

  private placeholder(name: string): string {
    return `${this.opening}${encodeURIComponent(name)}-->`;
  }

  private add(where: 'before' | 'after', args: unknown[]): string {
    const last = args.at(-1);
    const keywords: Keywords = typeof last === 'object' && last !== null && (last as Keywords).__keywords === true ? (last as Keywords) : {};
    const positional = keywords === last ? args.slice(0, -1) : args;
    const given = positional[0] ?? keywords['name'];
    const name = typeof given === 'string' ? given : '';
    if (name === '') throw new FrameworkError('view.no-stack-name', `${where === 'after' ? 'push' : 'prepend'}() needs the name of a stack`);
    const onceKey = keywords['once'] ?? positional[2];
    if (onceKey !== undefined && onceKey !== null && onceKey !== false) {
      const key = `${name}\u0000${typeof onceKey === 'string' || typeof onceKey === 'number' ? String(onceKey) : JSON.stringify(onceKey)}`;
      const pushed = (this.pushedOnce ??= new Set<string>());
      if (pushed.has(key)) return '';
      pushed.add(key);
    }
    const caller = keywords['caller'];
    const content = typeof caller === 'function' ? (caller as () => unknown)() : (positional[1] ?? keywords['content'] ?? '');
    const html = content instanceof nunjucks.runtime.SafeString ? content.toString() : escape(String(content));
    const stacks = (this.stacks ??= new Map<string, StackContent>());
    const stack = stacks.get(name) ?? { before: [], after: [] };
    stack[where].push(html);
    stacks.set(name, stack);
    return '';
  }
}

/** nunjucks' own autoescape function (its typings leave `lib.escape` out). */
const nunjucksLib = nunjucks.lib as unknown as { escape: (this: void, text: string) => string };
const escape = (text: string): string => nunjucksLib.escape(text);
