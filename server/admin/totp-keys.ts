/**
 * The key the staff TOTP secrets are sealed with (ASVS 5.0 6.4.1, NIST 800-63B 5.1.4.1: a
 * verifier's shared secret is stored encrypted, its key kept away from the database). A copy of
 * the database alone no longer yields every admin's second factor.
 *
 * - **Where the key comes from**: `PARLAY_TOTP_KEY` (64 hex characters: an AES-256 key), or else
 *   `<data dir>/totp.key` beside `audit.key` (created on first start, mode 0600). A production start
 *   on the key file still starts (`npm ci && npm start` must work on a fresh machine) but warns at
 *   every start that the key sits beside the data (`totp.key.beside-data`): a real deployment sets
 *   `PARLAY_TOTP_KEY` from its secret store.
 * - **Sealing**: AES-256-GCM, a fresh 96-bit IV each time, the admin's e-mail as additional data
 *   (a sealed secret copied into another admin's row does not open). Stored as base64url of
 *   IV ‖ ciphertext ‖ tag, with the key's id in a column beside it.
 * - **Rotation**: the key id is derived from the key (never typed, so never mislabelled). Put the
 *   new key in `PARLAY_TOTP_KEY` and the old one in `PARLAY_TOTP_PREVIOUS_KEYS` (comma-separated);
 *   the next start reseals every secret under the new key (./totp-sealing.ts); then drop the old one.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { join } from 'node:path'

export const TOTP_KEY_FILE = 'totp.key'

/** What a production start on the key file is told (the log's `totp.key.beside-data`). */
export const KEY_BESIDE_DATA =
  'PARLAY_TOTP_KEY is not set: the staff TOTP secrets are encrypted with <data dir>/totp.key, beside the data. For a real deployment set PARLAY_TOTP_KEY (64 hex characters, `openssl rand -hex 32`) from your secret store, the same on every instance (docs/security.md)'
const KEY_HEX = /^[0-9a-f]{64}$/i
const IV_BYTES = 12
const TAG_BYTES = 16

export class TotpKeyError extends Error {
  override name = 'TotpKeyError'
}

export interface Sealed {
  sealed: string
  keyId: string
}

export interface TotpKeyring {
  /** The id of the key new secrets are sealed with. */
  currentId: string
  /** Where the current key came from; `created`: the demo's key file was made by this start. */
  source: 'env' | 'file'
  created: boolean
  knows(keyId: string): boolean
  seal(secret: string, email: string): Sealed
  /** The secret, or undefined when the key is unknown or the text was altered (or belongs to another admin). */
  open(stored: Sealed, email: string): string | undefined
}

/** What a start was given: the current key and the previous ones (hex), e.g. from the environment. */
export interface TotpKeySettings {
  current?: string
  previous?: readonly string[]
}

export const totpKeySettingsOf = (env: NodeJS.ProcessEnv): TotpKeySettings => ({
  current: env.PARLAY_TOTP_KEY || undefined,
  previous: (env.PARLAY_TOTP_PREVIOUS_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean),
})

/** A key's id: the start of the SHA-256 of the key, so the same key has the same id on every instance. */
export const totpKeyId = (key: Buffer) => createHash('sha256').update('parlay-totp-key-id\0').update(key).digest('hex').slice(0, 12)

function keyOf(hex: string, name: string): Buffer {
  if (!KEY_HEX.test(hex.trim())) throw new TotpKeyError(`${name} must be 64 hex characters (an AES-256 key; make one with \`openssl rand -hex 32\`)`)
  return Buffer.from(hex.trim(), 'hex')
}

/** The keyring of a start: the given key, else the data dir's key file (created on first start). */
export function loadTotpKeyring(options: { dataDir: string; settings: TotpKeySettings }): TotpKeyring {
  const previous = (options.settings.previous ?? []).map((hex, i) => keyOf(hex, `PARLAY_TOTP_PREVIOUS_KEYS (key ${i + 1})`))
  if (options.settings.current) return keyring(keyOf(options.settings.current, 'PARLAY_TOTP_KEY'), previous, 'env', false)
  const path = join(options.dataDir, TOTP_KEY_FILE)
  const created = !existsSync(path)
  if (created) writeFileSync(path, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' })
  else if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600)
  return keyring(keyOf(readFileSync(path, 'utf8'), path), previous, 'file', created)
}

function keyring(current: Buffer, previous: Buffer[], source: 'env' | 'file', created: boolean): TotpKeyring {
  const keys = new Map([current, ...previous].map((key) => [totpKeyId(key), key] as const))
  const currentId = totpKeyId(current)
  return {
    currentId,
    source,
    created,
    knows: (keyId) => keys.has(keyId),
    seal(secret, email) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(additionalData(email))
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
      return { sealed: Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url'), keyId: currentId }
    },
    open(stored, email) {
      const key = keys.get(stored.keyId)
      const raw = Buffer.from(stored.sealed, 'base64url')
      if (!key || raw.length <= IV_BYTES + TAG_BYTES) return undefined
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES)).setAAD(additionalData(email))
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8')
      } catch {
        return undefined
      }
    },
  }
}

const additionalData = (email: string) => Buffer.from(`parlay-admin-totp:${email.toLowerCase()}`, 'utf8')
