import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../adapters/cli/command.js';
import { classNames, migrationName, migrationStamp, moduleFolder } from '../../../adapters/cli/generators/names.js';

describe('generator names', () => {
  it.each([
    ['Product', 'Product', 'product', 'products'],
    ['OrderLine', 'OrderLine', 'order-line', 'order_lines'],
    ['order_line', 'OrderLine', 'order-line', 'order_lines'],
    ['order-line', 'OrderLine', 'order-line', 'order_lines'],
    ['Category', 'Category', 'category', 'categories'],
    ['Day', 'Day', 'day', 'days'],
    ['Box', 'Box', 'box', 'boxes'],
    ['Address', 'Address', 'address', 'addresses'],
    ['Batch', 'Batch', 'batch', 'batches'],
    ['HTTPLog', 'HttpLog', 'http-log', 'http_logs'],
  ])('%s → %s, %s.ts, table %s', (name, pascal, kebab, table) => {
    expect(classNames(name, 'model')).toEqual({ pascal, kebab, table });
  });

  it.each(['', '9lives', 'a b', '../x', 'Product.ts'])('refuses the class name %j', (name) => {
    expect(() => classNames(name, 'model')).toThrow(UsageError);
  });

  it.each([
    ['add_price_to_products', 'add_price_to_products'],
    ['AddPriceToProducts', 'add_price_to_products'],
    ['add-price', 'add_price'],
  ])('migration %s → %s', (name, expected) => {
    expect(migrationName(name)).toBe(expected);
  });

  it.each(['', '1st', 'drop table;', '../up'])('refuses the migration name %j', (name) => {
    expect(() => migrationName(name)).toThrow(UsageError);
  });

  it('stamps migrations with the UTC time, as migrations/ does', () => {
    expect(migrationStamp(new Date('2026-11-24T14:03:09.500Z'))).toBe('20261124140309');
  });

  it('takes module folders of lower case, digits and -', () => {
    expect(moduleFolder('shop-2')).toBe('shop-2');
    for (const bad of ['Shop', '../etc', 'a/b', '']) expect(() => moduleFolder(bad)).toThrow(UsageError);
  });
});
