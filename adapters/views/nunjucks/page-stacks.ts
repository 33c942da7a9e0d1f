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
import { randomBytes } from 'node:crypto';
import nunjucks from 'nunjucks';

type Keywords = Record<string, unknown> & { __keywords?: true };

interface StackContent {
  before: string[];
  after: string[];
}

export class PageStacks {
  private readonly token = randomBytes(9).toString('hex');
  private readonly stacks = new Map<string, StackContent>();
  private readonly onceKeys = new Set<string>();
  private readonly pushedOnce = new Set<string>();

  /** The functions templates call, to put in the render's context. */
  globals(): Record<string, unknown> {
    return {
      stack: (name: unknown) => new nunjucks.runtime.SafeString(this.placeholder(String(name))),
      push: (...args: unknown[]) => this.add('after', args),
      prepend: (...args: unknown[]) => this.add('before', args),
      once: (key: unknown) => {
        const text = String(key);
        if (this.onceKeys.has(text)) return false;
        this.onceKeys.add(text);
        return true;
      },
    };
  }

  /** The rendered page with each `stack(name)` placeholder replaced by what was pushed to it. */
  fill(html: string): string {
    if (!html.includes(`<!--fw-stack:${this.token}:`)) return html;
    return html.replace(new RegExp(`<!--fw-stack:${this.token}:([^>]*?)-->`, 'gu'), (_match, encoded: string) => {
      const content = this.stacks.get(decodeURIComponent(encoded));
      return content === undefined ? '' : [...content.before].reverse().join('') + content.after.join('');
    });
  }

  private placeholder(name: string): string {
    return `<!--fw-stack:${this.token}:${encodeURIComponent(name)}-->`;
  }

  private add(where: 'before' | 'after', args: unknown[]): string {
    const last = args.at(-1);
    const keywords: Keywords = typeof last === 'object' && last !== null && (last as Keywords).__keywords === true ? (last as Keywords) : {};
    const positional = keywords === last ? args.slice(0, -1) : args;
    const given = positional[0] ?? keywords['name'];
    const name = typeof given === 'string' ? given : '';
    if (name === '') throw new Error(`${where === 'after' ? 'push' : 'prepend'}() needs the name of a stack`);
    const onceKey = keywords['once'] ?? positional[2];
    if (onceKey !== undefined && onceKey !== null && onceKey !== false) {
      const key = `${name}\u0000${typeof onceKey === 'string' || typeof onceKey === 'number' ? String(onceKey) : JSON.stringify(onceKey)}`;
      if (this.pushedOnce.has(key)) return '';
      this.pushedOnce.add(key);
    }
    const caller = keywords['caller'];
    const content = typeof caller === 'function' ? (caller as () => unknown)() : (positional[1] ?? keywords['content'] ?? '');
    const html = content instanceof nunjucks.runtime.SafeString ? content.toString() : escape(String(content));
    const stack = this.stacks.get(name) ?? { before: [], after: [] };
    stack[where].push(html);
    this.stacks.set(name, stack);
    return '';
  }
}

/** nunjucks' own autoescape function (its typings leave `lib.escape` out). */
const nunjucksLib = nunjucks.lib as unknown as { escape: (this: void, text: string) => string };
const escape = (text: string): string => nunjucksLib.escape(text);
