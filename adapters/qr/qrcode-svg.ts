import type { QrCode } from '../../ports/qr-code.js';

/**
 * QR codes as inline SVG by `qrcode`. Error correction M (15 %) is what authenticator apps
 * scan reliably from a screen; a margin of four modules is the quiet zone the standard asks for.
 * `qrcode` (and its PNG encoder) loads with the first code: only the two-factor setup page draws
 * one, so a server that never shows it does not carry the package (idle memory).
 */
export class QrcodeSvg implements QrCode {
  async svg(text: string): Promise<string> {
    const { default: QRCode } = await import('qrcode');
    return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  }
}
