import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkArchitecture, readSourceTree } from './import-rules.js';
import type { Violation } from './import-rules.js';

const repoRoot = resolve(import.meta.dirname, '../..');

function format(violations: Violation[]): string {
  return violations.map((v) => `${v.path}:${v.line} [${v.rule}] ${v.detail}`).join('\n');
}

describe('the source tree', () => {
  const files = readSourceTree(repoRoot);

  it('is read (so the rules below are not checked against nothing)', () => {
    expect(files.some((f) => f.path.startsWith('domain/'))).toBe(true);
    expect(files.every((f) => f.path.endsWith('.ts') && !f.path.endsWith('.d.ts'))).toBe(true);
  });

  it('follows the import rules of the hexagon', () => {
    const violations = checkArchitecture(files);
    expect(violations, `architecture violations:\n${format(violations)}`).toEqual([]);
  });
});

describe('readSourceTree', () => {
  it('reads .ts files of the source folders only, skipping node_modules, dist and .d.ts', () => {
    const root = mkdtempSync(join(tmpdir(), 'fw-arch-'));
    try {
      const write = (path: string): void => {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), 'export {};\n');
      };
      for (const path of [
        'domain/a.ts',
        'adapters/http/b.ts',
        'domain/types.d.ts',
        'domain/c.js',
        'adapters/node_modules/x/index.ts',
        'bin/dist/out.ts',
        'tests/t.ts',
        'docs/d.ts',
        'vitest.config.ts',
      ]) {
        write(path);
      }
      expect(readSourceTree(root).map((f) => f.path)).toEqual(['adapters/http/b.ts', 'domain/a.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

interface Sample {
  name: string;
  path: string;
  source: string;
  /** The rules expected to fire, one entry per violation, in source order. */
  rules: string[];
}

/** A sample file; `source` may be given as lines. */
function sample(name: string, path: string, source: string | string[], rules: string[]): Sample {
  return { name, path, source: Array.isArray(source) ? source.join('\n') : source, rules };
}

const badSamples: Sample[] = [
  // domain/ reaches nothing outside itself: no network, process, timers or console
  sample('domain calling fetch', 'domain/x.ts', `export const f = () => fetch('https://example.com');`, ['domain-globals']),
  sample('domain reading process.env', 'domain/x.ts', `export const key = process.env.APP_KEY;`, ['domain-globals']),
  sample('domain setting a timer', 'domain/x.ts', `export const later = (f: () => void) => setTimeout(f, 10);`, ['domain-globals']),
  sample('domain logging', 'domain/x.ts', `export function f(): void { console.log('x'); }`, ['domain-globals']),
  sample('domain measuring with performance', 'domain/x.ts', `export const t = () => performance.now();`, ['domain-globals']),
  sample('domain reaching through globalThis', 'domain/x.ts', `export const f = () => globalThis.fetch;`, ['domain-globals']),
  // application/: time and randomness through ports
  sample('use case calling Date.now()', 'application/x.ts', `export const now = () => Date.now();`, ['application-purity']),
  sample('use case calling new Date()', 'application/x.ts', `export const now = () => new Date();`, ['application-purity']),
  sample('use case calling crypto.randomUUID()', 'application/x.ts', `export const id = () => crypto.randomUUID();`, ['application-purity']),
  // groups inside adapters
  sample('kernel importing the fetch transport', 'adapters/http/kernel/x.ts', `import { fetchHandler } from '../fetch/fetch-handler.js';`, ['adapter-groups']),
  sample('fetch transport importing the hapi one', 'adapters/http/fetch/x.ts', `import { send } from '../hapi/send-reply.js';`, ['adapter-groups']),
  sample('hapi transport importing the fetch one', 'adapters/http/hapi/x.ts', `import { f } from '../fetch/fetch-handler.js';`, ['adapter-groups']),
  sample('feature routes importing a transport', 'adapters/http/auth/x.ts', `import { send } from '../hapi/send-reply.js';`, ['adapter-groups']),
  sample('in-memory store importing the SQL one', 'adapters/persistence/memory/x.ts', `import { S } from '../mikro-orm/sql-user-repository.js';`, ['adapter-groups']),
  sample('SQL store importing the in-memory one', 'adapters/persistence/mikro-orm/x.ts', `import { S } from '../memory/in-memory-user-repository.js';`, ['adapter-groups']),

  // domain/: only domain/ and node:crypto; no clock, no randomness
  sample(
    'domain importing an adapter',
    'domain/x.ts',
    `import { SystemClock } from '../adapters/clock/system-clock.js';`,
    ['domain-imports'],
  ),
  sample('domain importing node:fs', 'domain/x.ts', `import { readFileSync } from 'node:fs';`, ['domain-imports']),
  sample('domain importing a bare builtin', 'domain/x.ts', `import path from 'path';`, ['domain-imports']),
  sample('domain importing an npm package', 'domain/x.ts', `import { Entity } from '@mikro-orm/core';`, ['domain-imports']),
  sample('domain type-importing an npm package', 'domain/x.ts', `import type { Logger } from 'pino';`, ['domain-imports']),
  sample(
    'domain importing a port',
    'domain/users/x.ts',
    `import type { Clock } from '../../ports/clock.js';`,
    ['domain-imports'],
  ),
  sample(
    'domain re-exporting from an adapter',
    'domain/x.ts',
    `export { SystemClock } from '../adapters/clock/system-clock.js';`,
    ['domain-imports'],
  ),
  sample('domain with a dynamic import', 'domain/x.ts', `export const load = () => import('node:fs');`, ['domain-imports']),
  sample('domain with require()', 'domain/x.ts', `const fs = require('node:fs');`, ['domain-imports']),
  sample(
    'domain with an import type expression',
    'domain/x.ts',
    `export type Db = import('../adapters/persistence/mikro-orm/database.js').Database;`,
    ['domain-imports'],
  ),
  sample('domain calling Date.now()', 'domain/x.ts', `export const t = Date.now();`, ['domain-purity']),
  sample('domain calling new Date()', 'domain/x.ts', `export const t = new Date();`, ['domain-purity']),
  sample('domain calling new Date without parens', 'domain/x.ts', `export const t = new Date;`, ['domain-purity']),
  sample('domain calling Math.random()', 'domain/x.ts', `export const r = Math.random();`, ['domain-purity']),
  sample('domain passing Date.now on', 'domain/x.ts', `export const clock = { now: Date.now };`, ['domain-purity']),
  sample(
    'domain calling randomBytes from node:crypto',
    'domain/x.ts',
    [`import { randomBytes } from 'node:crypto';`, `export const salt = () => randomBytes(16);`],
    ['domain-purity'],
  ),
  sample(
    'domain importing randomBytes under another name',
    'domain/x.ts',
    [`import { randomBytes as bytes } from 'node:crypto';`, `export const salt = () => bytes(16);`],
    ['domain-purity'],
  ),
  sample('domain calling crypto.randomUUID()', 'domain/x.ts', `export const id = crypto.randomUUID();`, ['domain-purity']),
  sample(
    'domain calling randomInt on a namespace import',
    'domain/x.ts',
    [`import * as nodeCrypto from 'node:crypto';`, `export const n = nodeCrypto.randomInt(6);`],
    ['domain-purity'],
  ),
  sample(
    'domain calling crypto.subtle.generateKey()',
    'domain/x.ts',
    `export const key = globalThis.crypto.subtle.generateKey({ name: 'HMAC', length: 256 }, true, ['sign']);`,
    ['domain-purity'],
  ),
  sample(
    'domain with a property decorator',
    'domain/x.ts',
    [`declare const Property: () => PropertyDecorator;`, `export class User {`, `  @Property() name = '';`, `}`],
    ['no-decorators'],
  ),

  // ports/: only ports/ and domain/
  sample(
    'port importing an adapter',
    'ports/x.ts',
    `import type { Database } from '../adapters/persistence/mikro-orm/database.js';`,
    ['ports-imports'],
  ),
  sample('port importing pino', 'ports/x.ts', `import type { Logger } from 'pino';`, ['ports-imports']),
  sample(
    'port importing application',
    'ports/x.ts',
    `import type { CreateUser } from '../application/users/create-user.js';`,
    ['ports-imports'],
  ),
  sample('port importing node:crypto', 'ports/x.ts', `import type { KeyObject } from 'node:crypto';`, ['ports-imports']),

  // application/: only application/, domain/, ports/
  sample(
    'application importing an adapter',
    'application/x.ts',
    `import { SystemClock } from '../adapters/clock/system-clock.js';`,
    ['application-imports'],
  ),
  sample(
    'application importing composition',
    'application/x.ts',
    `import { buildApp } from '../composition/app.js';`,
    ['composition-entry-only'],
  ),
  sample(
    'application importing node:fs',
    'application/x.ts',
    `import { readFile } from 'node:fs/promises';`,
    ['application-imports'],
  ),
  sample(
    'application importing an npm package',
    'application/x.ts',
    `import { inject } from 'inversify';`,
    ['application-imports'],
  ),
  sample(
    'application with a decorator',
    'application/x.ts',
    [`declare function injectable(): ClassDecorator;`, `@injectable() class A {}`],
    ['no-decorators'],
  ),

  // adapters/: ports, domain, packages, own group; driving adapters (http, cli) also application
  sample(
    'cli adapter value-importing the persistence adapter',
    'adapters/cli/x.ts',
    `import { Database } from '../persistence/mikro-orm/database.js';`,
    ['adapter-imports'],
  ),
  sample(
    'cli adapter with an inline type specifier (kept as an import under verbatimModuleSyntax)',
    'adapters/cli/x.ts',
    `import { type Database } from '../persistence/mikro-orm/database.js';`,
    ['adapter-imports'],
  ),
  sample(
    'persistence adapter importing application',
    'adapters/persistence/x.ts',
    `import { createUser } from '../../application/users/create-user.js';`,
    ['adapter-imports'],
  ),
  sample(
    'driven adapter type-importing another driven adapter',
    'adapters/log/x.ts',
    `import type { SystemClock } from '../clock/system-clock.js';`,
    ['adapter-imports'],
  ),
  sample(
    'driving adapter type-importing another driving adapter',
    'adapters/http/x.ts',
    `import type { Command } from '../cli/command.js';`,
    ['adapter-imports'],
  ),
  sample(
    'adapter importing composition',
    'adapters/log/x.ts',
    `import { config } from '../../composition/config.js';`,
    ['composition-entry-only'],
  ),
  sample(
    'example host using the driven adapters and the use cases',
    'examples/host/server.ts',
    `import { CompleteSignIn } from '../../application/oauth/complete-sign-in.js';\nimport { FetchHttpClient } from '../../adapters/outbound-http/fetch-http-client.js';`,
    [],
  ),
  sample(
    "example host leaning on the framework's own HTTP adapter",
    'examples/host/server.ts',
    `import { oauthRoutes } from '../../adapters/http/oauth/oauth-routes.js';`,
    ['examples-imports'],
  ),
  sample(
    'example host importing composition',
    'examples/host/server.ts',
    `import { App } from '../../composition/app.js';`,
    ['composition-entry-only'],
  ),
  sample(
    'example host mounting fw through its public API',
    'examples/host/server.ts',
    `import { App, nodeListener } from '../../composition/index.js';`,
    [],
  ),
  sample(
    'adapter importing the public API',
    'adapters/log/x.ts',
    `import { App } from '../../composition/index.js';`,
    ['composition-entry-only'],
  ),
  sample(
    'adapter importing a test helper',
    'adapters/log/x.ts',
    `import { fixture } from '../../tests/support/fixture.js';`,
    ['adapter-imports'],
  ),

  // composition/ is imported by entry points only
  sample(
    'root config file importing composition',
    'vitest.config.ts',
    `import { config } from './composition/config.js';`,
    ['composition-entry-only'],
  ),
];

const goodSamples: Sample[] = [
  sample('domain with its own names process, console and fetch', 'domain/x.ts', [
    `export function run(process: (n: number) => number, items: { console: string }): number { return process(items.console.length); }`,
    `export const steps = { fetch: 1 };`,
    `export const named = (x: { performance: number }) => x.performance;`,
  ], []),
  sample('use case with a clock port and a date from a number', 'application/x.ts', [
    `export const at = (clock: { now(): Date }, ms: number) => new Date(clock.now().getTime() + ms);`,
  ], []),
  sample('transports and features importing the kernel', 'adapters/http/auth/x.ts', `import { KernelContext } from '../kernel/context.js';`, []),

  sample(
    'domain using node:crypto for hashing and new Date(value)',
    'domain/x.ts',
    [
      `import { createHmac } from 'node:crypto';`,
      `export const at = (value: string) => new Date(value);`,
      `export const mac = (key: string) => createHmac('sha256', key);`,
    ],
    [],
  ),
  sample(
    'domain mentioning Date.now() in a comment and a string',
    'domain/x.ts',
    [
      `// never call Date.now() or import '../adapters/clock.js' here`,
      `export const hint = 'Date.now(), new Date() and Math.random() are off limits';`,
    ],
    [],
  ),
  sample(
    'domain importing the domain and calling a port-like randomUUID method on a parameter',
    'domain/users/x.ts',
    [
      `import { normalizeEmail } from '../users/email.js';`,
      `export const id = (ids: { randomUUID(): string }) => ids.randomUUID() + normalizeEmail('a@b.c');`,
    ],
    [],
  ),
  sample('bin importing composition', 'bin/x.ts', `import { buildApp } from '../composition/app.js';`, []),
  sample('tests importing composition', 'tests/x.ts', `import { buildApp } from '../composition/app.js';`, []),
  sample(
    'bench importing anything',
    'bench/x.ts',
    [`import { buildApp } from '../composition/app.js';`, `import pino from 'pino';`],
    [],
  ),
  sample(
    'composition importing everything',
    'composition/app.ts',
    [
      `import { Database } from '../adapters/persistence/mikro-orm/database.js';`,
      `import { createUser } from '../application/users/create-user.js';`,
      `import { config } from './config.js';`,
    ],
    [],
  ),
  sample(
    'port importing ports and domain',
    'ports/x.ts',
    [`import type { User } from '../domain/users/user.js';`, `import type { Clock } from './clock.js';`],
    [],
  ),
  sample(
    'application importing application, domain and ports',
    'application/users/x.ts',
    [
      `import { findUserByEmail } from './find-user-by-email.js';`,
      `import type { Clock } from '../../ports/clock.js';`,
      `import { newUser } from '../../domain/users/user.js';`,
    ],
    [],
  ),
  sample(
    'cli adapter type-importing the persistence adapter',
    'adapters/cli/x.ts',
    `import type { Database } from '../persistence/mikro-orm/database.js';`,
    [],
  ),
  sample(
    'http adapter importing application',
    'adapters/http/x.ts',
    `import { createUser } from '../../application/users/create-user.js';`,
    [],
  ),
  sample(
    'adapter importing packages, node modules, its own group, ports and domain',
    'adapters/persistence/mikro-orm/x.ts',
    [
      `import { EntitySchema } from '@mikro-orm/core';`,
      `import { readFile } from 'node:fs/promises';`,
      `import { sql } from './raw-sql.js';`,
      `import { SqlUserRepository } from './sql-user-repository.js';`,
      `import type { UserRepository } from '../../../ports/user-repository.js';`,
      `import { User } from '../../../domain/users/user.js';`,
    ],
    [],
  ),
  sample(
    'adapter with a decorator (only domain and application forbid them)',
    'adapters/http/x.ts',
    [`declare function injectable(): ClassDecorator;`, `@injectable() export class A {}`],
    [],
  ),
];

describe('the kernel without hapi', () => {
  const rulesOf = (files: { path: string; source: string }[]): string[] => checkArchitecture(files).map((v) => `${v.path} ${v.rule}`);

  it.each([
    ['a value import of @hapi/hapi', `import Hapi from '@hapi/hapi';`],
    ['a type import of @hapi/hapi', `import type { Request } from '@hapi/hapi';`],
    ['an import of @hapi/boom', `import { badRequest } from '@hapi/boom';`],
    ['an import of @hapi/iron', `import Iron from '@hapi/iron';`],
  ])('refuses %s in adapters/http/kernel/', (_name, source) => {
    expect(rulesOf([{ path: 'adapters/http/kernel/x.ts', source }])).toEqual(['adapters/http/kernel/x.ts kernel-without-hapi']);
  });

  it('refuses a kernel file importing one that reaches hapi through another', () => {
    const files = [
      { path: 'adapters/http/kernel/context.ts', source: `import { send } from '../hapi/send.js';` },
      { path: 'adapters/http/hapi/send.ts', source: `import { toolkit } from './toolkit.js';` },
      { path: 'adapters/http/hapi/toolkit.ts', source: `import type { ResponseToolkit } from '@hapi/hapi';` },
    ];
    const [violation, ...rest] = checkArchitecture(files);
    expect(rest).toEqual([]);
    expect(violation).toMatchObject({ path: 'adapters/http/kernel/context.ts', line: 1, rule: 'kernel-without-hapi' });
    expect(violation?.detail).toContain('adapters/http/hapi/send.ts');
  });

  it('allows hapi in adapters/http/hapi/ and the kernel importing the kernel, validation and packages', () => {
    expect(
      rulesOf([
        { path: 'adapters/http/hapi/server.ts', source: `import Hapi from '@hapi/hapi';
import { dispatcher } from '../kernel/dispatch.js';` },
        { path: 'adapters/http/kernel/dispatch.ts', source: `import { validate } from '../validation/validate.js';
import { parse } from 'node:querystring';` },
        { path: 'adapters/http/validation/validate.ts', source: `import { create } from 'superstruct';` },
        { path: 'adapters/http/kernel/a.ts', source: `import { b } from './b.js';` },
        { path: 'adapters/http/kernel/b.ts', source: `import { a } from './a.js';` },
      ]),
    ).toEqual([]);
  });
});

describe('checkArchitecture', () => {
  it.each([...badSamples, ...goodSamples])('$name → $rules', ({ path, source, rules }) => {
    const violations = checkArchitecture([{ path, source }]);
    expect(violations.map((v) => v.rule), format(violations)).toEqual(rules);
  });

  it('reports the path, the line and the specifier', () => {
    const source = `import type { User } from './users/user.js';\n\nimport { readFileSync } from 'node:fs';`;
    const [violation, ...rest] = checkArchitecture([{ path: 'domain/x.ts', source }]);
    expect(rest).toEqual([]);
    expect(violation).toMatchObject({ path: 'domain/x.ts', line: 3, rule: 'domain-imports' });
    expect(violation?.detail).toContain("'node:fs'");
  });
});
