/**
 * Belarus document upload (after sign-up the punter goes to /account/upload): a real multipart
 * upload with multer, size and type checked (type by the file's first bytes, not by its name or
 * the browser's claim), stored under `<dataDir>/uploads/<punterId>/`.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const UPLOAD_LIMITS = { maxBytes: 5 * 1024 * 1024, files: 1 } as const
export const DOCUMENT_TYPES = ['ID_CARD', 'DRIVING_LICENSE', 'PASSPORT', 'AT_PERSONAL_ID_CARD', 'BT_PERSONAL_ID_CARD', 'FIREARMS_LICENSE'] as const

const SIGNATURES: { type: string; ext: string; magic: number[] }[] = [
  { type: 'image/jpeg', ext: 'jpg', magic: [0xff, 0xd8, 0xff] },
  { type: 'image/png', ext: 'png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'application/pdf', ext: 'pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
]

/** The file's real type from its first bytes; undefined for anything else. */
export function sniffType(buffer: Buffer): { type: string; ext: string } | undefined {
  return SIGNATURES.find((s) => buffer.length >= s.magic.length && s.magic.every((b, i) => buffer[i] === b))
}

export function storeDocument(dataDir: string, punterId: number, buffer: Buffer, ext: string): string {
  const dir = join(dataDir, 'uploads', String(punterId))
  mkdirSync(dir, { recursive: true })
  const name = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}.${ext}`
  writeFileSync(join(dir, name), buffer, { mode: 0o600 })
  return name
}
