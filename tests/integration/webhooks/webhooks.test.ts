import { beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { MemoryLogger } from '../../../adapters/log/memory-logger.js';
import type { LogLine } from '../../../adapters/log/memory-logger.js';
import { SqlWebhookDeliveries } from '../../../adapters/persistence/mikro-orm/sql-webhook-deliveries.js';
import { DeliveryBusy, Webhooks } from '../../../application/webhooks/webhooks.js';
import type { WebhookQueue } from '../../../application/webhooks/webhooks.js';
import { secretKey, verifyWebhook } from '../../../domain/webhooks/signature.js';
import type { RandomSource } from '../../../ports/random-source.js';
import type { TransportResult, WebhookPost, WebhookTransport } from '../../../ports/webhook-transport.js';
import { useEngines } from '../../support/databases.js';
import { useMigratedDatabase } from '../../support/migrated-database.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const random: RandomSource = { bytes: (n) => new Uint8Array(n).fill(128) };

/** Answers each post with the next scripted result, and keeps what was posted. */
class ScriptedTransport implements WebhookTransport {
  readonly posts: WebhookPost[] = [];
  constructor(private readonly answers: TransportResult[]) {}
  post(request: WebhookPost): Promise<TransportResult> {
    this.posts.push(request);
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error('no scripted answer left');
    return Promise.resolve(answer);
  }
}

const [sqlite] = useEngines();

describe('Webhooks (the use case) on a SQLite file, with a scripted transport and queue', () => {
  const db = useMigratedDatabase(sqlite!);
  let clock: FixedClock;
  let logs: LogLine[];
  let retries: [string, number][];
  let deliveries: SqlWebhookDeliveries;

  const queue = (): WebhookQueue => ({
    first: (delivery) => deliveries.add(delivery),
    retry: (id, delayMs) => {
      retries.push([id, delayMs]);
      return Promise.resolve();
    },
  });
  const make = (transport: WebhookTransport, secret = SECRET) =>
    new Webhooks(deliveries, transport, queue(), () => secret, clock, random, new MemoryLogger(logs), { policy: { maxAttempts: 3, baseDelayMs: 10_000, factor: 3, maxDelayMs: 3600_000 } });

  beforeEach(async () => {
    await db().raw.session((sql) => sql.exec('DELETE FROM webhook_deliveries'));
    clock = new FixedClock('2026-11-24T12:00:00Z');
    logs = [];
    retries = [];
    deliveries = new SqlWebhookDeliveries(db().raw);
  });

  it('signs each attempt anew with the time of the attempt; retries on 503 until the last attempt fails', async () => {
    const transport = new ScriptedTransport([
      { kind: 'response', status: 503, responseBody: 'busy' },
      { kind: 'network-error', message: 'ECONNRESET' },
      { kind: 'response', status: 503 },
    ]);
    const webhooks = make(transport);
    const { id } = await webhooks.send('https://hooks.example.com/in', 'invoice.paid', { invoice: 1 });
    await webhooks.deliverQueued(id);
    expect(retries).toEqual([[id, 10_000]]);
    expect(await deliveries.find(id)).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 503, lastResponse: 'busy' });

    clock.advance(10_000);
    await webhooks.deliverQueued(id);
    expect(retries[1]).toEqual([id, 30_000]);
    clock.advance(30_000);
    await webhooks.deliverQueued(id);
    expect(await deliveries.find(id)).toMatchObject({ status: 'failed', attempts: 3, lastError: 'HTTP 503 (after 3 attempts)' });
    expect(retries).toHaveLength(2);

    const [first, , third] = transport.posts;
    expect(first?.headers['webhook-timestamp']).toBe(String(Date.parse('2026-11-24T12:00:00Z') / 1000));
    expect(third?.headers['webhook-timestamp']).toBe(String(Date.parse('2026-11-24T12:00:40Z') / 1000));
    for (const post of transport.posts) {
      const message = { id, timestamp: Number(post.headers['webhook-timestamp']), body: post.body };
      expect(verifyWebhook(message, post.headers['webhook-signature'] ?? '', secretKey(SECRET)!, message.timestamp)).toBe(true);
    }
    expect(first?.body).toBe('{"type":"invoice.paid","timestamp":"2026-11-24T12:00:00.000Z","data":{"invoice":1}}');
  });

  it('a queued job finds its delivery due later, delivered, or held by another worker', async () => {
    const webhooks = make(new ScriptedTransport([{ kind: 'response', status: 500 }, { kind: 'response', status: 200 }]));
    const { id } = await webhooks.send('https://hooks.example.com/in', 'x', null);
    await webhooks.deliverQueued(id);
    // Due in 10 s: an early job does nothing (the delayed one will).
    await expect(webhooks.deliverQueued(id)).resolves.toBeUndefined();
    clock.advance(10_000);
    // Another worker claims it and has not finished: this job goes back to the queue.
    expect(await deliveries.claimDue(clock.now(), new Date(clock.now().getTime() + 60_000), 1, id)).toHaveLength(1);
    await expect(webhooks.deliverQueued(id)).rejects.toThrow(DeliveryBusy);
    // Its lease runs out: the job's next try attempts it.
    clock.advance(60_000);
    await webhooks.deliverQueued(id);
    expect(await deliveries.find(id)).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 200 });
    await expect(webhooks.deliverQueued(id)).resolves.toBeUndefined();
  });

  it('a secret that is not whsec_ fails the delivery without sending it', async () => {
    const transport = new ScriptedTransport([]);
    const webhooks = make(transport, 'plain-password');
    const { id } = await webhooks.send('https://hooks.example.com/in', 'x', {});
    await webhooks.deliverQueued(id);
    expect(transport.posts).toEqual([]);
    expect(await deliveries.find(id)).toMatchObject({ status: 'failed', lastError: expect.stringContaining('not a whsec_ secret') as string });
  });

  it('a 4xx other than 408 and 429 fails at once, logged without the body or secret', async () => {
    const webhooks = make(new ScriptedTransport([{ kind: 'response', status: 410 }]));
    const { id } = await webhooks.send('https://hooks.example.com/in', 'x', { card: '4242' });
    await webhooks.deliverQueued(id);
    expect(await deliveries.find(id)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 410' });
    expect(retries).toEqual([]);
    expect(JSON.stringify(logs)).not.toMatch(/4242|whsec_/u);
  });
});
