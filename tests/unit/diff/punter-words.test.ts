import { describe, expect, it } from 'vitest'
import { fieldLabelKey, inPunterWords } from '../../../tools/schema-lint/diff/punter-words'

const flow = { kind: 'flow', steps: [{ id: 'account', schema: { properties: { countryId: { type: 'integer', title: 'signup.field.country' } } } }] }
const doc = (kind: string) => ({ kind, id: 'x', jurisdiction: 'spain', variant: '', file: 'f.json', label: 'l' })
const es = { 'signup.field.country': 'País', 'lobby.casino.banner': 'Bono de bienvenida', 'promo.cashback.body': '10 % de reembolso' }

describe('a finding in the punter’s words', () => {
  it('a field reads as its label in the locale', () => {
    expect(fieldLabelKey(flow, 'countryId')).toBe('signup.field.country')
    expect(inPunterWords({ message: 'Spain sign-up (email): field countryId no longer required', document: doc('flow') }, [flow], es)).toBe('Spain sign-up (email): field “País” no longer required')
  })
  it('a removed field is labelled from the published side', () => {
    expect(inPunterWords({ message: 'field countryId removed from step account', document: doc('flow') }, [{ steps: [] }, flow], es)).toBe('field “País” removed from step account')
  })
  it('text keys read as their texts', () => {
    expect(inPunterWords({ message: 'screen casino-lobby: banner text lobby.casino.banner → promo.cashback.body', document: doc('screen') }, [], es)).toBe('screen casino-lobby: banner text “Bono de bienvenida” → “10 % de reembolso”')
  })
  it('nothing to say: no line (no field or key with a text, or a texts document, whose findings quote their texts)', () => {
    expect(inPunterWords({ message: 'left menu: item results icon results → trophy', document: doc('menu') }, [], es)).toBeUndefined()
    expect(inPunterWords({ message: 'field unknownField now required', document: doc('flow') }, [flow], es)).toBeUndefined()
    expect(inPunterWords({ message: 'texts es-signup: text signup.field.country "País" → "Nación"', document: doc('translations') }, [], es)).toBeUndefined()
  })
})
