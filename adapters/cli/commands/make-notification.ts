import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface MakeNotificationDeps {
  /** The app's folder: the file goes to `src/notifications/<name>.ts` under it, beside `make:job`'s. */
  root(): string;
}

/** `InvoicePaid`, `invoice-paid` or `invoice_paid` → `invoice-paid`; null for anything else. */
export function notificationFileName(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/u.test(name)) return null;
  return name
    .replace(/([a-z0-9])([A-Z])/gu, '$1-$2')
    .replace(/_/gu, '-')
    .toLowerCase();
}

function pascal(kebab: string): string {
  return kebab
    .split('-')
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

function source(kebab: string): string {
  const name = pascal(kebab);
  return `import { object, string } from 'superstruct';
import { defineNotification } from 'fw';

/**
 * Register it with \`app.module(Notifications.create().notification(${name}))\`, then send it:
 * \`await services.get(TOKENS.notifier).send(user.id, ${name}.with({ message: '…' }))\`.
 */
export const ${name} = defineNotification({
  name: '${kebab}',
  payload: object({ message: string() }),
  via: ['mail', 'database'],
  mail: ({ message }, user) => ({ subject: '${name.replace(/([a-z])([A-Z])/gu, '$1 $2')}', text: \`Hello \${user.name},\\n\\n\${message}\` }),
  database: ({ message }) => ({ message }),
});
`;
}

/** `fwx make:notification <Name>`: a notification class with mail and database channels. */
export function makeNotificationCommand(deps: MakeNotificationDeps): CliCommand {
  return {
    name: 'make:notification',
    args: '<name>',
    description: 'Create a notification with mail and database channels in src/notifications/<name>.ts',
    async run({ args }, io) {
      const kebab = notificationFileName(args[0] ?? '');
      if (kebab === null) throw new UsageError('The name must start with a letter and hold letters, digits, - and _ (e.g. InvoicePaid)');
      const folder = join(deps.root(), 'src', 'notifications');
      const path = join(folder, `${kebab}.ts`);
      if (existsSync(path)) throw new FrameworkError('cli.file-exists', `src/notifications/${kebab}.ts exists already; nothing was written`);
      await mkdir(folder, { recursive: true });
      await writeFile(path, source(kebab), { flag: 'wx' });
      io.out(`Created src/notifications/${kebab}.ts (${pascal(kebab)}).`);
    },
  };
}
