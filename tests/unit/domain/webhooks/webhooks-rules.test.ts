import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAfterAttempt, DEFAULT_RETRY_POLICY, retryableStatus } from '../../../../domain/webhooks/retry.js';
import type { AttemptResult } from '../../../../domain/webhooks/retry.js';
import { derivedEndpointSecret, formatSecret, secretKey, signWebhook, verifyWebhook, webhookHeaders } from '../../../../domain/webhooks/signature.js';
import { checkWebhookAddress, checkWebhookUrl, REFUSED_RANGES } from '../../../../domain/webhooks/target-guard.js';

describe('Standard Webhooks signature', () => {
  // The example of the Standard Webhooks specification and its reference libraries.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const message = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' };

  it("matches the specification's example", () => {
    expect(signWebhook(message, secretKey(secret)!)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(webhookHeaders(message, secretKey(secret)!)).toEqual({
      'content-type': 'application/json',
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it.each<[string, string, number, boolean]>([
    ['the right signature', 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=', 1614265330, true],
    ['among several (key rotation)', 'v1,AAAA v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=', 1614265330, true],
    ['five minutes late is still fine', 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=', 1614265330 + 300, true],
    ['a replay after five minutes', 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=', 1614265330 + 301, false],
    ['another version', 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=', 1614265330, false],
    ['one bit off', 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OF=', 1614265330, false],
    ['empty', '', 1614265330, false],
  ])('verify: %s → %s', (_name, header, now, expected) => {
    expect(verifyWebhook(message, header, secretKey(secret)!, now)).toBe(expected);
  });

  it('a changed body, id or timestamp breaks the signature', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.integer({ min: 0, max: 2 ** 31 }), (body, id, timestamp) => {
        const key = secretKey(secret)!;
        const header = signWebhook({ id, timestamp, body }, key);
        expect(verifyWebhook({ id, timestamp, body }, header, key, timestamp)).toBe(true);
        expect(verifyWebhook({ id, timestamp, body: `${body} ` }, header, key, timestamp)).toBe(false);
        expect(verifyWebhook({ id: `${id}x`, timestamp, body }, header, key, timestamp)).toBe(false);
        expect(verifyWebhook({ id, timestamp: timestamp + 1, body }, header, key, timestamp)).toBe(false);
      }),
    );
  });

  it.each(['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_c2hvcnQ=', 'whsec_!!!!', `whsec_${Buffer.alloc(65).toString('base64')}`])('refuses the secret %j', (bad) => {
    expect(secretKey(bad)).toBeNull();
  });

  it('derives one secret per endpoint from APP_KEY: the query does not matter, the path does', () => {
    const appKey = Buffer.alloc(32, 7);
    const a = derivedEndpointSecret(appKey, new URL('https://hooks.example.com/in?x=1'));
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/u);
    expect(secretKey(a)).toHaveLength(32);
    expect(derivedEndpointSecret(appKey, new URL('https://hooks.example.com/in'))).toBe(a);
    expect(derivedEndpointSecret(appKey, new URL('https://hooks.example.com/other'))).not.toBe(a);
    expect(derivedEndpointSecret(Buffer.alloc(32, 8), new URL('https://hooks.example.com/in'))).not.toBe(a);
    expect(formatSecret(secretKey(a)!)).toBe(a);
  });
});

describe('retries', () => {
  const response = (status: number): AttemptResult => ({ kind: 'response', status });

  it.each<[number, boolean]>([
    [200, false], [204, false], [301, false], [302, false], [400, false], [401, false], [403, false], [404, false], [410, false], [422, false],
    [408, true], [429, true], [500, true], [502, true], [503, true], [504, true],
  ])('HTTP %i retryable: %s', (status, expected) => {
    expect(retryableStatus(status)).toBe(expected);
  });

  it.each<[string, AttemptResult, number, string]>([
    ['2xx is delivered', response(200), 1, 'delivered'],
    ['202 is delivered', response(202), 8, 'delivered'],
    ['a redirect is not followed: failed', response(302), 1, 'failed'],
    ['404 fails at once', response(404), 1, 'failed'],
    ['500 is retried', response(500), 1, 'retry'],
    ['429 is retried', response(429), 3, 'retry'],
    ['408 is retried', response(408), 3, 'retry'],
    ['a network error is retried', { kind: 'network-error', message: 'ECONNREFUSED' }, 1, 'retry'],
    ['a refused target is never retried', { kind: 'refused', message: 'private' }, 1, 'failed'],
    ['the last attempt fails', response(503), 8, 'failed'],
  ])('%s', (_name, result, attempt, expected) => {
    expect(decideAfterAttempt(result, attempt, DEFAULT_RETRY_POLICY, 0.5).kind).toBe(expected);
  });

  it('waits 10 s, 30 s, 90 s… with ±20 % jitter, never past the cap, and grows with each attempt', () => {
    const plain = [10_000, 30_000, 90_000, 270_000, 810_000, 2_430_000, 7_290_000];
    for (const [index, expected] of plain.entries()) {
      expect(decideAfterAttempt(response(500), index + 1, DEFAULT_RETRY_POLICY, 0.5)).toEqual({ kind: 'retry', delayMs: expected });
    }
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 0.999, noNaN: true }), (attempt, random) => {
        const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 100 };
        const decision = decideAfterAttempt({ kind: 'network-error', message: 'x' }, attempt, policy, random);
        if (decision.kind !== 'retry') throw new Error('expected a retry');
        const base = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** (attempt - 1));
        expect(decision.delayMs).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
        expect(decision.delayMs).toBeLessThanOrEqual(Math.ceil(base * 1.2));
      }),
    );
  });
});

describe('the target guard', () => {
  /** Addresses inside each refused range: its first, and one further in. */
  const SAMPLES: Record<string, string[]> = {
    '0.0.0.0/8': ['0.0.0.0', '0.1.2.3'],
    '10.0.0.0/8': ['10.0.0.1', '10.255.255.254'],
    '100.64.0.0/10': ['100.64.0.1', '100.127.255.254'],
    '127.0.0.0/8': ['127.0.0.1', '127.255.0.9'],
    '169.254.0.0/16': ['169.254.169.254', '169.254.0.1'],
    '172.16.0.0/12': ['172.16.0.1', '172.31.255.254'],
    '192.0.0.0/24': ['192.0.0.1', '192.0.0.255'],
    '192.0.2.0/24': ['192.0.2.1', '192.0.2.200'],
    '192.168.0.0/16': ['192.168.0.1', '192.168.255.254'],
    '198.18.0.0/15': ['198.18.0.1', '198.19.255.254'],
    '198.51.100.0/24': ['198.51.100.1', '198.51.100.200'],
    '203.0.113.0/24': ['203.0.113.1', '203.0.113.200'],
    '224.0.0.0/4': ['224.0.0.1', '239.255.255.250'],
    '240.0.0.0/4': ['240.0.0.1', '255.255.255.255'],
    '::/128': ['::'],
    '::1/128': ['::1', '0:0:0:0:0:0:0:1'],
    '::/96': ['::a00:1', '::7f00:1'],
    '64:ff9b::/96': ['64:ff9b::a00:1', '64:ff9b::808:808'],
    '64:ff9b:1::/48': ['64:ff9b:1::1'],
    '100::/64': ['100::1'],
    '2001:db8::/32': ['2001:db8::1', '2001:db8:ffff::1'],
    'fc00::/7': ['fc00::1', 'fd12:3456::1'],
    'fe80::/10': ['fe80::1', 'febf::1'],
    'fec0::/10': ['fec0::1'],
    'ff00::/8': ['ff02::1', 'ff0e::1'],
  };
  const samples = (range: string): string[] => {
    const found = SAMPLES[range];
    if (found === undefined) throw new Error(`no sample addresses for ${range}`);
    return found;
  };

  for (const { text, kind } of REFUSED_RANGES) {
    it(`refuses ${text} (${kind})${kind === 'loopback' ? ', unless loopback is allowed' : ''}`, () => {
      for (const address of samples(text)) {
        const verdict = checkWebhookAddress(address, false);
        expect(verdict.allowed, address).toBe(false);
        if (!verdict.allowed) expect(verdict.reason).toContain(kind);
        expect(checkWebhookAddress(address, true).allowed, address).toBe(kind === 'loopback');
      }
    });
  }

  it.each([
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.1.2.3', false],
    ['::ffff:169.254.169.254', false],
    ['169.254.169.254', false],
    ['fd00:ec2::254', false],
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['172.32.0.1', true],
    ['100.128.0.1', true],
    ['not-an-ip', false],
  ])('%s allowed: %s', (address, expected) => {
    expect(checkWebhookAddress(address, false).allowed).toBe(expected);
  });

  it.each([
    ['https://hooks.example.com/in', true],
    ['http://hooks.example.com:8080/in', true],
    ['ftp://hooks.example.com/', false],
    ['file:///etc/passwd', false],
    ['https://user:pass@hooks.example.com/', false],
    ['/relative', false],
  ])('URL %s allowed: %s', (url, expected) => {
    expect(checkWebhookUrl(url).allowed).toBe(expected);
  });
});
