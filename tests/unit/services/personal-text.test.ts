import { describe, expect, it } from 'vitest'
import { carriesData } from '../../../kernel/core/personal-text'

describe('session replay masking, level medium (spec §9): which texts are the punter’s data', () => {
  it('a plain translation key (a label, a title) is readable in replays', () => {
    expect(carriesData('join.phone.label')).toBe(false)
    expect(carriesData({ key: 'join.title', values: { brand: 'Parlay', count: 3 } })).toBe(false)
    expect(carriesData(undefined)).toBe(false)
  })
  it('a text interpolating a value computed from the context is masked', () => {
    expect(carriesData({ key: 'credentials.email.current', values: { email: { $: 'string(data.credentials.email)' } } })).toBe(true)
  })
  it('a text computed whole from the context is masked', () => {
    expect(carriesData({ $: 'data.punter.nickname' })).toBe(true)
  })
  it('a plural counted from the context is masked', () => {
    expect(carriesData({ key: 'bets.open', count: { $: 'size(data.bets)' } })).toBe(true)
  })
})
