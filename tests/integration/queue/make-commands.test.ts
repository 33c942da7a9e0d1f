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

  /** Every command of background work (issue 16's list). */
  const BACKGROUND_COMMANDS = ['queue:work', 'queue:failed', 'queue:retry', 'queue:forget', 'queue:flush', 'queue:prune-failed', 'queue:prune-batches', 'schedule:list', 'schedule:run', 'schedule:work', 'webhook:failed', 'webhook:retry', 'cache:prune', 'make:job', 'make:notification', 'make:event', 'make:command'];

  it('lists them, and every queue, schedule and webhook command, in --help', async () => {
    const help = await TestApp.create({ root: dir() }).call('--help');
    for (const name of BACKGROUND_COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'mu'));
    expect(help.stdout).toContain('Create an event in src/events/');
  });

  it('are each in the table of commands of the README', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const name of BACKGROUND_COMMANDS) expect(readme, name).toMatch(new RegExp(`^\\|.*\`${name}[ \`]`, 'mu'));
  });
});
