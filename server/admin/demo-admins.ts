/**
 * The demo's staff accounts (documented in DEMO_ADMINS.md): their passwords AND their TOTP secrets
 * are published, so they exist only while the demo is asked for (`npm run dev`,
 * `PARLAY_SIMULATORS=on`, `--demo`; server/admin/staff.ts seeds them) and a production start
 * disables any it finds. Data only: no imports, so every part can read the list.
 */
export interface DemoAdmin {
  email: string
  name: string
  role: 'operator' | 'compliance' | 'support'
  password: string
  /** Base32 TOTP secret (SHA-1, 6 digits, 30 s): the demo comes enrolled, the code computed from this. */
  totpSecret: string
}

export const DEMO_ADMINS: readonly DemoAdmin[] = [
  { email: 'operator@parlay.test', name: 'Olga Operator', role: 'operator', password: 'operator-demo-2026', totpSecret: 'NX5DVSDCB5UJ2OW4FNXRUZDKNRKCEPYT' },
  { email: 'compliance@parlay.test', name: 'Carlos Compliance', role: 'compliance', password: 'compliance-demo-2026', totpSecret: '74E4HC2EOFW5332YTJRJSU3KFWO62J32' },
  { email: 'compliance2@parlay.test', name: 'Chiara Compliance', role: 'compliance', password: 'compliance2-demo-2026', totpSecret: 'X765JJKNUUHEPMTWQJFEF3HSZNV2QBS5' },
  { email: 'support@parlay.test', name: 'Sam Support', role: 'support', password: 'support-demo-2026', totpSecret: 'ZWSAKNZKZQVSR7KNIVCGWNJ45PZ66N2D' },
]

export const DEMO_ADMIN_EMAILS: readonly string[] = DEMO_ADMINS.map((a) => a.email.toLowerCase())

/** Published passwords: refused as anyone's new password (they are "known-breached" by definition). */
export const PUBLISHED_PASSWORDS: ReadonlySet<string> = new Set(DEMO_ADMINS.map((a) => a.password))
