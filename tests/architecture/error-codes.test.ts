import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSourceTree } from './import-rules.js';
import { checkErrorCodes } from './error-rules.js';
import type { ErrorRuleViolation } from './error-rules.js';

const repoRoot = resolve(import.meta.dirname, '../..');

function format(violations: ErrorRuleViolation[]): string {
  return violations.map((v) => `${v.path}:${v.line} ${v.detail}`).join('\n');
}

describe('errors fw throws', () => {
  it('all carry a stable code: no bare Error, TypeError or RangeError in framework source', () => {
    const violations = checkErrorCodes(readSourceTree(repoRoot));
    expect(violations, `errors without a code:\n${format(violations)}`).toEqual([]);
  });

  it.each([
    ['a thrown Error', 'domain/x.ts', `export function f(): never { throw new Error('no'); }`],
    ['a thrown TypeError', 'adapters/x.ts', `export function f(): never { throw new TypeError('no'); }`],
    ['a thrown RangeError', 'application/x.ts', `export function f(): never { throw new RangeError('no'); }`],
    ['an Error called without new', 'ports/x.ts', `export function f(): never { throw Error('no'); }`],
    ['a rejected Error', 'composition/x.ts', `export const f = () => Promise.reject(new Error('off'));`],
    ['an Error passed to a callback', 'adapters/cli/x.ts', `export const f = (reject: (e: Error) => void) => reject(new Error('cancelled'));`],
    ['a class extending Error', 'adapters/x.ts', `export class Oops extends Error {}`],
    ['a class extending TypeError', 'domain/x.ts', `export class Oops extends TypeError {}`],
    ['a class expression extending Error', 'bin/x.ts', `export const Oops = class extends Error {};`],
  ])('are refused when %s appears', (_name, path, source) => {
    expect(checkErrorCodes([{ path, source }])).toHaveLength(1);
  });

  it.each([
    ['a coded error', 'domain/x.ts', `import { MisuseError } from './shared/errors.js';\nexport function f(): never { throw new MisuseError('session.bad-key', 'no'); }`],
    ['a foreign value wrapped', 'adapters/x.ts', `export const wrap = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));`],
    ['an Error in a comment or a string', 'domain/x.ts', `// throw new Error('x')\nexport const text = "throw new TypeError('y')";`],
    ['a test file', 'tests/x.test.ts', `throw new Error('fine in a test');`],
    ['a bench or an example', 'examples/x.ts', `throw new Error('fine in an example');`],
  ])('allow %s', (_name, path, source) => {
    expect(checkErrorCodes([{ path, source }])).toEqual([]);
  });
});

/** The codes a union type in `path` lists (`| 'area.code'`). */
function unionCodes(path: string, typeName: string): string[] {
  const source = readFileSync(resolve(repoRoot, path), 'utf8');
  const start = source.indexOf(`export type ${typeName} =`);
  expect(start, `${typeName} in ${path}`).toBeGreaterThanOrEqual(0);
  const body = source.slice(start, source.indexOf(';', start));
  return [...body.matchAll(/'([^']+)'/gu)].map((match) => match[1] ?? '');
}

describe('docs/errors.md', () => {
  const documented = new Set([...readFileSync(resolve(repoRoot, 'docs/errors.md'), 'utf8').matchAll(/^\| `([^`]+)` \|/gmu)].map((match) => match[1]));
  const declared = [
    ...unionCodes('domain/shared/error-codes.ts', 'ErrorCode'),
    ...unionCodes('domain/http/routing/routing-error.ts', 'RoutingErrorCode'),
    ...unionCodes('ports/view-renderer.ts', 'ViewErrorCode'),
    ...unionCodes('domain/data/invalid-query.ts', 'InvalidQueryCode'),
  ];

  it('lists every code the source declares, and no other', () => {
    expect(declared.length).toBeGreaterThan(150);
    expect([...documented].sort()).toEqual([...new Set(declared)].sort());
  });
});
