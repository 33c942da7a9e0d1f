import { describe, expect, it } from 'vitest';
import { QrcodeSvg } from '../../../adapters/qr/qrcode-svg.js';

describe('QrcodeSvg', () => {
  it('draws a standalone SVG with no script and no outside reference', async () => {
    const svg = await new QrcodeSvg().svg('otpauth://totp/Acme:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*viewBox="0 0 \d+ \d+"/u);
    expect(svg.trimEnd()).toMatch(/<\/svg>$/u);
    expect(svg).not.toMatch(/<script|href=|url\(/iu);
  });
});
