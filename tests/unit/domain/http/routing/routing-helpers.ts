import { expect } from 'vitest';
import { buildRouteTable } from '../../../../../domain/http/routing/route-table.js';
import type { RouteTable } from '../../../../../domain/http/routing/route-table.js';
import type { Routes } from '../../../../../domain/http/routing/routes.js';
import { RoutingError } from '../../../../../domain/http/routing/routing-error.js';
import type { RoutingErrorCode } from '../../../../../domain/http/routing/routing-error.js';

/** Handlers are plain strings in these tests, so a test can see which one was chosen. */
export type H = string;

/** A table from `[module, routes]` pairs, in order. */
export function tableOf(...modules: [string, Routes<H>][]): RouteTable<H> {
  return buildRouteTable(modules.map(([module, routes]) => ({ module, routes })));
}

/** Runs `action`, expects a RoutingError with `code` whose message holds every fragment. */
export function expectRoutingError(action: () => unknown, code: RoutingErrorCode, ...fragments: string[]): RoutingError {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'expected a RoutingError to be thrown').toBeInstanceOf(RoutingError);
  const error = thrown as RoutingError;
  expect(error.code).toBe(code);
  for (const fragment of fragments) expect(error.message).toContain(fragment);
  return error;
}
