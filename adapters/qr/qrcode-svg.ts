import QRCode from 'qrcode';
import type { QrCode } from '../../ports/qr-code.js';

/**
 * QR codes as inline SVG by `qrcode`. Error correction M (15 %) is what authenticator apps
 * scan reliably from a screen; a margin of four modules is the quiet zone the standard asks for.
 */
export class QrcodeSvg implements QrCode {
  svg(text: string): Promise<string> {
    return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  }
}
