/**
 * The experiment groups cookie (kernel/experiments/groups-cookie.ts, issue 10): the page keeps the
 * visitor's id and group indices in a small cookie so the server renders /join with the groups the
 * browser's first render uses. What the server reads is bounded and checked: anything malformed is
 * ignored whole (the server then decides afresh), never an error.
 */
import { describe, expect, it } from 'vitest'
import {
  GROUPS_COOKIE,
  GROUPS_COOKIE_MAX_LENGTH,
  decodeVisitorGroups,
  encodeVisitorGroups,
  groupIndices,
  readVisitorGroups,
  visitorGroupsCookie,
} from '../../../kernel/experiments/groups-cookie'

const id = 'k3j9x0abcdefghijklmnop12'

describe('the groups cookie codec', () => {
  it('reads back what it wrote: id and group index per experiment, -1 for "not in it"', () => {
    const value = { id, groups: { registrationMotivation: 1, depositErrorHandling: 0, lobbyBanner: -1 } }
    const text = encodeVisitorGroups(value)
    expect(text).toBe(`1:${id}:registrationMotivation.1/depositErrorHandling.0/lobbyBanner.-1`)
    expect(decodeVisitorGroups(text)).toEqual(value)
    expect(decodeVisitorGroups(encodeVisitorGroups({ id, groups: {} }))).toEqual({ id, groups: {} })
  })

  it('writes only characters a cookie value may hold, and no more than its bound', () => {
    const groups = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`experiment_${'x'.repeat(50)}${i}`, i % 3]))
    const text = encodeVisitorGroups({ id, groups })!
    expect(text.length).toBeLessThanOrEqual(GROUPS_COOKIE_MAX_LENGTH)
    expect(text).toMatch(/^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+$/)
    expect(Object.keys(decodeVisitorGroups(text)!.groups).length).toBeGreaterThan(0)
  })

  it('leaves out a name or index it cannot carry, and writes nothing for an id that is not one', () => {
    expect(encodeVisitorGroups({ id, groups: { 'bad name': 1, 'a.b': 0, ok: 2, half: 1.5, low: -2 } })).toBe(`1:${id}:ok.2`)
    expect(encodeVisitorGroups({ id: 'short', groups: {} })).toBeUndefined()
    expect(encodeVisitorGroups({ id: 'has space in it', groups: {} })).toBeUndefined()
  })

  it('ignores a malformed value whole: wrong version, bad id, bad part, too long, extra fields', () => {
    for (const bad of [
      undefined,
      '',
      `2:${id}:a.1`,
      `1:short:a.1`,
      `1:${id}`,
      `1:${id}:a.1:extra`,
      `1:${id}:a`,
      `1:${id}:.1`,
      `1:${id}:a.x`,
      `1:${id}:a.-2`,
      `1:${id}:a.1000`,
      `1:${id}:a.1//b.0`,
      `1:${id}:${'a.1/'.repeat(300)}a.1`,
      `1:${id}:__proto__.1/${'b'.repeat(2000)}.1`,
      '%7B%22json%22%3A1%7D',
    ]) {
      expect(decodeVisitorGroups(bad), String(bad)).toBeUndefined()
    }
  })

  it('is found in a Cookie header among others; a broken or absent one is no value', () => {
    expect(readVisitorGroups(`ConsentCookie=all; ${GROUPS_COOKIE}=1:${id}:a.1; parlay_punter=1`)).toEqual({ id, groups: { a: 1 } })
    expect(readVisitorGroups(`${GROUPS_COOKIE}=garbage`)).toBeUndefined()
    expect(readVisitorGroups(`x${GROUPS_COOKIE}=1:${id}:a.1`)).toBeUndefined()
    expect(readVisitorGroups(undefined)).toBeUndefined()
    expect(readVisitorGroups('')).toBeUndefined()
  })

  it('an own-property name like __proto__ is an ordinary entry, not a prototype change', () => {
    const read = decodeVisitorGroups(`1:${id}:__proto__.1/constructor.0`)!
    expect(Object.getPrototypeOf(read.groups)).toBe(Object.prototype)
    expect(Object.keys(read.groups).sort()).toEqual(['__proto__', 'constructor'])
  })

  it('the cookie is site-wide, first-party (SameSite=Lax), long-lived, Secure over https', () => {
    expect(visitorGroupsCookie(`1:${id}:`)).toBe(`${GROUPS_COOKIE}=1:${id}:; Path=/; SameSite=Lax; Max-Age=31536000`)
    expect(visitorGroupsCookie(`1:${id}:`, true)).toMatch(/; Secure$/)
  })

  it('takes the indices from the experiments store value, skipping entries without one', () => {
    expect(groupIndices({ a: { group: 'b', index: 1, inTest: true, params: {} }, b: { index: -1 }, c: null, d: { index: 'x' } })).toEqual({ a: 1, b: -1 })
  })
})
