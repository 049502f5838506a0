import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { demoPunters, DEMO_PASSWORD } from '../../../server/punters/demo'

const table = readFileSync(resolve(import.meta.dirname, '../../../docs/demo-data.md'), 'utf8')

describe('demo punters (issue 3 §7): every state that changes what a punter sees, documented', () => {
  const punters = demoPunters(0)
  it('docs/demo-data.md lists every demo punter with its logins and the password', () => {
    expect(table).toContain(DEMO_PASSWORD)
    for (const p of punters) {
      const row = table.split('\n').find((line) => line.includes(`| ${p.accountNumber} |`))
      expect(row, p.accountNumber).toBeDefined()
      if (p.email) expect(row).toContain(p.email)
      if (p.phone) expect(row).toContain(p.phone)
      expect(row).toContain(p.nickname ?? '(empty)')
    }
  })
  it('covers the states, the VIP, zero balance, legal agreement pending, empty nickname and the refused logins', () => {
    const states = new Set(punters.map((p) => p.state ?? 'OPENED'))
    for (const s of ['OPENED', 'SELF_EXCLUDED', 'PLAYER_PROTECTION_MEASURE', 'NEED_DOCUMENT', 'SUSPENDED', 'BLOCKED_ID_UPLOAD', 'CLOSED']) expect(states).toContain(s)
    expect(punters.some((p) => p.vip)).toBe(true)
    expect(punters.some((p) => p.balanceMinor === 0 && !p.firstDepositDate)).toBe(true)
    expect(punters.some((p) => p.legalAgreement === 'pending')).toBe(true)
    expect(punters.some((p) => p.nickname === null && (p.state ?? 'OPENED') === 'OPENED')).toBe(true)
    expect(punters.some((p) => p.emailConfirmed === false)).toBe(true)
    expect(punters.some((p) => p.phoneConfirmed === false)).toBe(true)
    expect(punters.some((p) => p.loginDeniedUntil)).toBe(true)
  })
})
