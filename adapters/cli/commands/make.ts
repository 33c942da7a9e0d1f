import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { CliCommand, CommandInput } from '../command.js';
import { UsageError } from '../command.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface MakeDeps {
  /** The app's folder: files go under its `src/`. */
  root(): string;
}

const PASCAL = /^[A-Z][A-Za-z0-9]*$/u;
const COMMAND_NAME = /^[a-z][a-z0-9-]*(:[a-z][a-z0-9-]*)*$/u;
const MODULE = /^[a-z][a-z0-9-]*$/u;

/** `SendWelcomeMail` → `send-welcome-mail`. */
export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/gu, '$1-$2').replace(/([A-Z])([A-Z][a-z])/gu, '$1-$2').toLowerCase();
}

const jobStub = (name: string) => `import { object, number } from 'superstruct';
import { defineJob } from 'fw';

/**
 * Register it with \`app.job(${name})\` (or a module's \`jobs\`), dispatch it with
 * \`services.get(TOKENS.jobs).dispatch(${name}.with({ id: 1 }))\`, and run it with \`fwx queue:work\`.
 */
export const ${name} = defineJob({
  name: '${kebab(name)}',
  payload: object({ id: number() }),
  queue: 'default',
  tries: 3,
  timeoutMs: 60_000,
  async handle({ id }, { services }) {
    // The work, with the app's services: services.get(TOKENS.mailer), context.provided(key)…
    void id;
    void services;
  },
});
`;

const eventStub = (name: string) => `/**
 * Published in a handler with \`ctx.service(TOKENS.eventBus).publish(new ${name}(…))\` (the
 * listeners get the request's address and id), elsewhere with \`services.get(TOKENS.eventBus)\`;
 * listened to with \`app.listen(${name}, (event, services, origin) => …)\`.
 */
export class ${name} {
  constructor(readonly id: number) {}
}
`;

const commandStub = (name: string) => `import type { Module } from 'fw';

/** \`fwx ${name}\`: add it to a module's \`commands\`. */
export const ${camel(name)}Command: ReturnType<NonNullable<Module['commands']>>[number] = {
  name: '${name}',
  description: 'Describe what ${name} does',
  options: [{ flags: '--dry-run', description: 'Say what would change, change nothing', type: 'boolean' }],
  async run({ options }, io) {
    io.out(options['dry-run'] === true ? 'Nothing changed (dry run).' : 'Done.');
  },
};
`;

function camel(name: string): string {
  return kebab(name.replace(/:/gu, '-')).replace(/-([a-z0-9])/gu, (_, letter: string) => letter.toUpperCase());
}

const MODULE_OPTION = { flags: '--module <name>', description: "Put it in the module's folder: src/<name>/…", type: 'string' } as const;

function generator(kind: 'job' | 'event' | 'command', deps: MakeDeps): CliCommand {
  const folder = { job: 'jobs', event: 'events', command: 'commands' }[kind];
  const article = kind === 'event' ? 'an' : 'a';
  return {
    name: `make:${kind}`,
    args: '<name>',
    description: `Create ${article} ${kind} in src/${folder}/ (or src/<module>/${folder}/ with --module)`,
    options: [MODULE_OPTION],
    async run({ args, options }: CommandInput, io) {
      const [name = ''] = args;
      if (kind === 'command' ? !COMMAND_NAME.test(name) : !PASCAL.test(name)) {
        throw new UsageError(kind === 'command' ? `A command's name is lower-case words joined by ':' (report:send), got "${name}"` : `${article === 'an' ? 'An' : 'A'} ${kind}'s name is PascalCase (SendWelcomeMail), got "${name}"`);
      }
      const module = options['module'];
      if (module !== undefined && (typeof module !== 'string' || !MODULE.test(module))) throw new UsageError(`--module must be a lower-case name, got "${String(module)}"`);
      const file = join(deps.root(), 'src', ...(typeof module === 'string' ? [module] : []), folder, `${kebab(name.replace(/:/gu, '-'))}.ts`);
      if (existsSync(file)) throw new FrameworkError('cli.file-exists', `${relative(deps.root(), file)} already exists; nothing was written`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, { job: jobStub, event: eventStub, command: commandStub }[kind](name), { flag: 'wx' });
      io.out(`Created ${relative(deps.root(), file)}`);
    },
  };
}

/** `make:job`, `make:event`, `make:command`. */
export function makeCommands(deps: MakeDeps): CliCommand[] {
  return [generator('job', deps), generator('event', deps), generator('command', deps)];
}
