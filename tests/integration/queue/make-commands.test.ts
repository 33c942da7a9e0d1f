import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TestApp } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-make-');

/** Parses the file as TypeScript: the generated code must at least be valid syntax. */
function syntaxErrors(path: string): string[] {
  const output = ts.transpileModule(readFileSync(path, 'utf8'), { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
  return (output.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('make:job, make:event, make:command', () => {
  it.each([
    ['make:job', 'SendWelcomeMail', [], 'src/jobs/send-welcome-mail.ts', ["name: 'send-welcome-mail'", 'export const SendWelcomeMail = defineJob(']],
    ['make:job', 'PruneReports', ['--module', 'reports'], 'src/reports/jobs/prune-reports.ts', ["name: 'prune-reports'"]],
    ['make:event', 'OrderShipped', [], 'src/events/order-shipped.ts', ['export class OrderShipped']],
    ['make:command', 'report:send', [], 'src/commands/report-send.ts', ["name: 'report:send'", 'export const reportSendCommand']],
  ])('%s %s writes %s', async (command, name, extra, path, contents) => {
    const app = TestApp.create({ root: dir() });
    const outcome = await app.call(command, [name, ...extra]);
    expect(outcome.stdout).toBe(`Created ${path}`);
    const text = readFileSync(join(dir(), path), 'utf8');
    for (const content of contents) expect(text).toContain(content);
    expect(syntaxErrors(join(dir(), path))).toEqual([]);
    const again = await app.call(command, [name, ...extra]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining(`${path} already exists; nothing was written`)]);
  });

  it.each([
    ['make:job', 'sendWelcome'],
    ['make:event', 'order_shipped'],
    ['make:command', 'Report:Send'],
  ])('%s refuses the name %s with the usage', async (command, name) => {
    const outcome = await TestApp.create({ root: dir() }).call(command, [name]);
    expect(outcome.code).toBe(2);
  });

  it('lists them, and the queue commands, in --help', async () => {
    const help = await TestApp.create({ root: dir() }).call('--help');
    for (const name of ['make:job', 'make:event', 'make:command', 'queue:work', 'queue:failed', 'queue:retry', 'queue:forget', 'queue:flush', 'queue:prune-failed']) {
      expect(help.stdout).toContain(name);
    }
  });
});
