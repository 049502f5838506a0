/**
 * What the first sign-in shows to set up an authenticator: the secret as text (typed by hand),
 * its otpauth:// URI (a link, on a phone), and that URI as a QR code to scan — a PNG data URL
 * drawn here on the server by the `qrcode` library, so the sign-in page needs no script of its
 * own for it and the site's CSP (img-src 'self' data:) allows the image as it stands.
 */
import QRCode from 'qrcode'
import { otpauthUri } from './second-factor'

export interface Enrolment {
  secret: string
  uri: string
  /** data:image/png;base64,… of the URI's QR code. */
  qr: string
}

export async function enrolmentOf(secret: string, email: string): Promise<Enrolment> {
  const uri = otpauthUri(secret, email)
  return { secret, uri, qr: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 4, scale: 5 }) }
}
