import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../../domain/shared/redact-secrets.js';

describe('redactSecrets: the one helper for sign-in reasons, failed jobs and scheduled tasks', () => {
  it.each<[string, string, (string | null | undefined)[], string]>([
    ['a secret as written', 'token abc123 refused', ['abc123'], 'token [redacted] refused'],
    ['a secret as spelled in a URL', 'GET /cb?code=a%2Fb%3Dc', ['a/b=c'], 'GET /cb?code=[redacted]'],
    ['every occurrence', 'x s3cr3t y s3cr3t', ['s3cr3t'], 'x [redacted] y [redacted]'],
    ['a longer secret containing a shorter one, whole', 'pw=hunter22', ['hunter', 'hunter22'], 'pw=[redacted]'],
    ['nothing for empty and missing secrets', 'plain text', ['', null, undefined], 'plain text'],
  ])('hides %s', (_name, text, secrets, expected) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });

  it('takes the marker the caller names and cuts to max characters, never half a character', () => {
    expect(redactSecrets('key=abc', ['abc'], { marker: '[secret]' })).toBe('key=[secret]');
    expect(redactSecrets('😀😀😀😀', [], { max: 3 })).toBe('😀😀…');
  });

  it('never leaves a secret in any text (property)', () => {
    fc.assert(
      // Secrets of characters the marker has none of: one overlapping the marker could show through it.
      fc.property(fc.stringMatching(/^[A-Z0-9%/@:]{1,16}$/u), fc.array(fc.string()), (secret, parts) => {
        const text = parts.join(secret);
        expect(redactSecrets(text, [secret])).not.toContain(secret);
      }),
    );
  });
});
