import { randomBytes } from 'node:crypto';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { parseEnv } from 'node:util';

export type EnvValues = Readonly<Record<string, string | undefined>>;

/** Reads a `.env` file; a missing file is an empty one. */
export async function readEnvFile(path: string): Promise<Record<string, string>> {
  if (!existsSync(path)) return {};
  return parseEnv(await readFile(path, 'utf8')) as Record<string, string>;
}

/** A fresh application key: 32 random bytes, base64, with the `base64:` prefix. */
export function generateAppKey(): string {
  return `base64:${randomBytes(32).toString('base64')}`;
}

/**
 * Sets `NAME=value` in a `.env` file, replacing an existing line of that name (commented-out
 * examples stay as they are) or appending one. The file is made from `.env.example` when it
 * does not exist yet, so a newcomer gets every documented setting.
 */
export async function setEnvValue(path: string, examplePath: string, name: string, value: string): Promise<void> {
  if (!existsSync(path) && existsSync(examplePath)) await copyFile(examplePath, path);
  const text = existsSync(path) ? await readFile(path, 'utf8') : '';
  const line = `${name}=${value}`;
  const pattern = new RegExp(`^\\s*(export\\s+)?${name}\\s*=.*$`, 'mu');
  const next = pattern.test(text) ? text.replace(pattern, line) : `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`;
  await writeFile(path, next, { mode: 0o600 });
}

/**
 * What `npm start` does before reading the configuration: a first run gets a `.env` with a
 * fresh APP_KEY. An APP_KEY given in the environment or already in the file is never replaced.
 */
export async function ensureAppKey(path: string, examplePath: string, environment: EnvValues): Promise<'created' | 'kept'> {
  if ((environment['APP_KEY'] ?? '') !== '') return 'kept';
  const file = await readEnvFile(path);
  if ((file['APP_KEY'] ?? '') !== '') return 'kept';
  await setEnvValue(path, examplePath, 'APP_KEY', generateAppKey());
  return 'created';
}
