import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { probePostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server URL the suites may create databases on; null when none (outside CI only). */
    postgresUrl: string | null;
  }
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

function dockerEngineMayAnswer(): boolean {
  return (process.env['DOCKER_HOST'] ?? '') !== '' || existsSync('/var/run/docker.sock');
}

/**
 * Finds the PostgreSQL server for the database suites, once per run: a Testcontainers
 * container when a Docker engine answers, otherwise the server named by DATABASE_URL (or the
 * local default). In CI (`CI=true`) a server that cannot be reached fails the run; elsewhere
 * the PostgreSQL suites are skipped and say so.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let stop = async (): Promise<void> => {};
  let url: string | null = null;
  let origin = '';

  if (dockerEngineMayAnswer() && process.env['FW_TEST_NO_CONTAINERS'] !== 'true') {
    try {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const container = await new PostgreSqlContainer('postgres:16-alpine').start();
      url = container.getConnectionUri();
      origin = 'a Testcontainers container';
      stop = async () => {
        await container.stop();
      };
    } catch (error) {
      console.warn(`[tests] Docker engine present but no container started (${(error as Error).message}); using DATABASE_URL`);
    }
  }

  if (url === null) {
    const fromEnv = process.env['DATABASE_URL'] ?? '';
    url = /^postgres(ql)?:\/\//u.test(fromEnv) ? fromEnv : DEFAULT_URL;
    origin = url === DEFAULT_URL ? 'the local default server' : 'DATABASE_URL';
  }

  const problem = await probePostgres(url);
  if (problem !== null) {
    const message = `PostgreSQL is not reachable at ${redact(url)} (${origin}): ${problem}`;
    if (process.env['CI'] === 'true') throw new Error(`${message}. In CI the database suites must run.`);
    console.warn(`[tests] ${message}. The PostgreSQL suites are SKIPPED; start PostgreSQL or set DATABASE_URL to run them.`);
    url = null;
  }
  project.provide('postgresUrl', url);
  return stop;
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/u, '//$1:***@');
}
