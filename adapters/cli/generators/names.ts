import { UsageError } from '../command.js';

/** The names one generated class goes by: `Product` → product.ts, table `products`. */
export interface ClassNames {
  /** `OrderLine` */
  readonly pascal: string;
  /** `order-line`: the file name */
  readonly kebab: string;
  /** `order_lines`: the table */
  readonly table: string;
}

/** `OrderLine`, `order-line` or `order_line` → its names; anything else is a usage error. */
export function classNames(name: string, what: string): ClassNames {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/u.test(name)) throw new UsageError(`The ${what} name must start with a letter and hold letters, digits, - and _ (e.g. OrderLine)`);
  const words = name
    .replace(/([A-Z]+)([A-Z][a-z])/gu, '$1 $2')
    .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
    .split(/[\s_-]+/u)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
  const pascal = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  const last = words.length - 1;
  return { pascal, kebab: words.join('-'), table: [...words.slice(0, last), plural(words[last]!)].join('_') };
}

/** English plurals for table names, the regular rules only (`category` → `categories`, `box` → `boxes`). */
export function plural(word: string): string {
  if (/[^aeiou]y$/u.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/u.test(word)) return `${word}es`;
  return `${word}s`;
}

/** A module's folder name: lower case, digits and `-`. */
export function moduleFolder(name: string): string {
  if (!/^[a-z][a-z0-9-]*$/u.test(name)) throw new UsageError(`The module name must be lower case letters, digits and - (e.g. shop), not ${JSON.stringify(name)}`);
  return name;
}

/** A migration's name as the migrator reads it: `create_products_table`, from any spelling. */
export function migrationName(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/gu, '$1_$2')
    .replace(/[\s-]+/gu, '_')
    .toLowerCase();
  if (!/^[a-z][a-z0-9_]*$/u.test(snake)) throw new UsageError(`The migration name must be snake_case letters, digits and _ (e.g. add_price_to_products), not ${JSON.stringify(name)}`);
  return snake;
}

/** `20261124143000`: the UTC time a migration's file name starts with, as in migrations/. */
export function migrationStamp(now: Date): string {
  return now.toISOString().replace(/\D/gu, '').slice(0, 14);
}
