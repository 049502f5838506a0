import { describe, expect, it } from 'vitest'
import { diffDocumentSets, type DocumentSnapshot } from '../../../tools/schema-lint/diff/differ'
import { IMPACT_CLASSES } from '../../../tools/schema-lint/diff/classify'

const doc = (file: string, source: Record<string, unknown>, jurisdiction = ''): DocumentSnapshot => ({
  kind: String(source.kind),
  id: String(source.id),
  jurisdiction,
  file,
  source,
})

const spainSignup = () =>
  doc(
    'jurisdictions/spain/flows/signup-email.json',
    {
      kind: 'flow',
      id: 'signup-email',
      title: 'signup.title',
      steps: [
        {
          id: 'account',
          schema: { type: 'object', required: ['email', 'password'], properties: { email: { type: 'string' }, password: { type: 'string', minLength: 8 } } },
        },
        {
          id: 'personal',
          schema: {
            type: 'object',
            required: ['firstName', 'birthDay', 'documentNumber'],
            properties: { firstName: { type: 'string', maxLength: 60 }, birthDay: { type: 'string', format: 'date' }, documentNumber: { type: 'string', pattern: '^[0-9]{8}[A-Z]$' } },
          },
          uiSchema: { birthDay: { 'ui:widget': 'date' } },
        },
        {
          id: 'confirm',
          schema: { type: 'object', required: ['terms'], properties: { terms: { type: 'boolean', const: true }, promoCode: { type: 'string', maxLength: 40 } } },
          submit: [{ do: 'join.start', with: { variant: 'spain' } }],
        },
      ],
    },
    'spain',
  )

const selfExclude = () =>
  doc('popups/self-exclude.json', {
    kind: 'popup',
    id: 'self-exclude',
    modal: 'confirm',
    title: 'popup.selfExclude.title',
    body: [{ type: 'text', text: 'popup.selfExclude.body' }],
    buttons: [
      { label: 'popup.selfExclude.confirm', actions: [{ do: 'account.selfExclude', with: { days: 30 } }] },
      { label: 'common.cancel', actions: [{ do: 'popup.close' }] },
    ],
  })

const leftMenu = () =>
  doc('menus/left-menu.json', {
    kind: 'menu',
    id: 'left-menu',
    items: [
      { name: 'results', label: 'menu.results', icon: 'results', to: '/sport/results' },
      { name: 'loyalty', label: 'menu.loyalty', icon: 'loyalty', to: '/account/loyalty', loginOnly: true },
      { name: 'promotions', label: 'menu.promotions', icon: 'promotions', to: '/promotions' },
    ],
  })

const russia = () =>
  doc(
    'jurisdictions/russia/jurisdiction.json',
    {
      kind: 'jurisdiction',
      id: 'russia',
      name: 'Russia',
      minimumAge: 18,
      currency: 'RUB',
      afterLogin: [
        { id: 'self-excluded', when: "user.state == 'SELF_EXCLUDED'", popup: 'self-exclude' },
        { id: 'reality-check', when: "route.section == 'casino'", popup: 'reality-check-required' },
        { id: 'need-document', when: "user.state == 'NEED_DOCUMENT'", popup: 'user-needs-document' },
        { id: 'welcome-offer', when: 'user.balance == 0.0', popup: 'welcome-bonus' },
      ],
      regulatory: { depositLimits: { periods: ['daily', 'weekly'], increaseTakesEffectAfterHours: 24 } },
    },
    'russia',
  )

const texts = () => doc('i18n/en.json', { kind: 'translations', id: 'en', resources: { 'menu.results': 'Results', 'popup.selfExclude.body': 'You are excluded.' } })

const baseline = () => [spainSignup(), selfExclude(), leftMenu(), russia(), texts()]

function change(edit: (docs: Record<string, Record<string, any>>) => void) {
  const before = baseline()
  const after = baseline()
  const byId = Object.fromEntries(after.map((d) => [d.id === 'signup-email' ? 'signup' : d.id, d.source as Record<string, any>]))
  edit(byId)
  return diffDocumentSets(before, after)
}

describe('the differ speaks the product language', () => {
  it('age gate: "Spain sign-up: field birthDay no longer required" is an error', () => {
    const [finding, ...rest] = change((d) => (d.signup.steps[1].schema.required = ['firstName', 'documentNumber']))
    expect(rest).toEqual([])
    expect(finding.message).toBe('Spain sign-up (email): field birthDay no longer required')
    expect(finding.impact).toBe('age-gate')
    expect(finding.severity).toBe('error')
    expect(finding.location).toBe('/steps[personal]/schema/required[birthDay]')
  })
  it('age gate: a jurisdiction minimum age 18 → 16 is an error; raising it is a warning', () => {
    const [lowered] = change((d) => (d.russia.minimumAge = 16))
    expect(lowered.message).toBe('Russia site: minimum age 18 → 16')
    expect([lowered.impact, lowered.severity]).toEqual(['age-gate', 'error'])
    const [raised] = change((d) => (d.russia.minimumAge = 21))
    expect([raised.impact, raised.severity]).toEqual(['age-gate', 'warning'])
  })
  it('consent and legal: terms no longer has to be accepted', () => {
    const findings = change((d) => delete d.signup.steps[2].schema.properties.terms.const)
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ impact: 'consent-legal', severity: 'error', message: 'Spain sign-up (email): field terms no longer has const true' })
  })
  it('self-exclusion: a button that now runs nav.go instead of account.selfExclude', () => {
    const [finding] = change((d) => (d['self-exclude'].buttons[0].actions = [{ do: 'nav.go', with: { to: '/' } }]))
    expect(finding.message).toBe('popup self-exclude: button confirm now runs nav.go instead of account.selfExclude')
    expect([finding.impact, finding.severity]).toEqual(['self-exclusion-limits', 'error'])
  })
  it('self-exclusion and limits: a shorter waiting period for a raised deposit limit is loosened', () => {
    const [finding] = change((d) => (d.russia.regulatory.depositLimits.increaseTakesEffectAfterHours = 0))
    expect([finding.impact, finding.severity, finding.direction]).toEqual(['self-exclusion-limits', 'error', 'loosened'])
  })
  it('responsible gambling: removing the reality-check after-login rule is an error', () => {
    const [finding] = change((d) => d.russia.afterLogin.splice(1, 1))
    expect(finding.message).toBe('Russia site: after-login rule reality-check removed')
    expect([finding.impact, finding.severity]).toEqual(['responsible-gambling', 'error'])
  })
  it('identity and KYC: the document number pattern changes', () => {
    const [finding] = change((d) => (d.signup.steps[1].schema.properties.documentNumber.pattern = '^.*$'))
    expect(finding.impact).toBe('identity-kyc')
    expect(finding.severity).toBe('warning')
    expect(finding.message).toContain('field documentNumber pattern')
  })
  it('input validation: a name’s maxLength, a password’s minLength, an e-mail’s format and a document number’s length are validation notes, not identity and KYC', () => {
    const findings = change((d) => {
      d.signup.steps[1].schema.properties.firstName.maxLength = 50
      d.signup.steps[0].schema.properties.password.minLength = 10
      d.signup.steps[0].schema.properties.email.format = 'email'
      d.signup.steps[1].schema.properties.documentNumber.maxLength = 9
    })
    expect(findings.map((f) => f.message).sort()).toEqual([
      'Spain sign-up (email): field documentNumber now has maxLength 9',
      'Spain sign-up (email): field email now has format email',
      'Spain sign-up (email): field firstName maxLength 60 → 50',
      'Spain sign-up (email): field password minLength 8 → 10',
    ])
    for (const finding of findings) expect([finding.impact, finding.severity], finding.message).toEqual(['validation', 'note'])
  })
  it('a bound that IS the rule keeps its class: a birth date’s format is the age gate, a promo code’s length is money and bonus', () => {
    const [birth] = change((d) => (d.signup.steps[1].schema.properties.birthDay.format = 'date-time'))
    expect(birth.impact).toBe('age-gate')
    const [promo] = change((d) => (d.signup.steps[2].schema.properties.promoCode.maxLength = 20))
    expect(promo.impact).toBe('money-bonus')
  })
  it('money and bonus: the left menu item loyalty is now shown to guests', () => {
    const [finding] = change((d) => delete d['left-menu'].items[1].loginOnly)
    expect(finding.message).toBe('left menu: item loyalty now shown to guests')
    expect(finding.impact).toBe('money-bonus')
  })
  it('copy: a changed text of the self-exclusion popup is copy, read by compliance (warning)', () => {
    const [finding] = change((d) => (d.en.resources['popup.selfExclude.body'] = 'Take a break.'))
    expect(finding.impact).toBe('copy')
    expect(finding.severity).toBe('warning')
    const [plain] = change((d) => (d.en.resources['menu.results'] = 'Scores'))
    expect([plain.impact, plain.severity]).toEqual(['copy', 'note'])
  })
  it('cosmetic: an icon change is a note', () => {
    const [finding] = change((d) => (d['left-menu'].items[0].icon = 'trophy'))
    expect([finding.impact, finding.severity]).toEqual(['cosmetic', 'note'])
    expect(finding.message).toBe('left menu: item results icon results → trophy')
  })
  it('every impact class is reachable', () => {
    const seen = new Set(
      change((d) => {
        d.signup.steps[1].schema.required = ['firstName', 'documentNumber']
        delete d.signup.steps[2].schema.properties.terms.const
        d['self-exclude'].buttons[0].actions = [{ do: 'nav.go', with: { to: '/' } }]
        d.russia.afterLogin.splice(1, 1)
        d.signup.steps[1].schema.properties.documentNumber.pattern = '^.*$'
        d.signup.steps[1].schema.properties.firstName.maxLength = 50
        delete d['left-menu'].items[1].loginOnly
        d.en.resources['menu.results'] = 'Scores'
        d['left-menu'].items[0].icon = 'trophy'
      }).map((f) => f.impact),
    )
    expect([...seen].sort()).toEqual([...IMPACT_CLASSES].sort())
  })
  it('an unchanged set has no findings; added and removed documents are reported', () => {
    expect(diffDocumentSets(baseline(), baseline())).toEqual([])
    const findings = diffDocumentSets(baseline(), baseline().filter((d) => d.id !== 'self-exclude'))
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ rule: 'document.removed', impact: 'self-exclusion-limits', severity: 'error' })
  })
})

describe('fingerprints follow a finding across commits', () => {
  const birthDay = (edit: (d: Record<string, Record<string, any>>) => void) =>
    change((d) => {
      d.signup.steps[1].schema.required = ['firstName', 'documentNumber']
      edit(d)
    }).find((f) => f.rule === 'field.required.removed')!.fingerprint

  it('do not depend on the order of steps, fields, menu items or rules', () => {
    const plain = birthDay(() => {})
    expect(birthDay((d) => d.signup.steps.reverse())).toBe(plain)
    expect(birthDay((d) => (d.signup.steps[1].schema.properties = Object.fromEntries(Object.entries(d.signup.steps[1].schema.properties).reverse())))).toBe(plain)
  })
  it('do not depend on unrelated edits elsewhere in the document or the set', () => {
    const plain = birthDay(() => {})
    expect(birthDay((d) => (d.signup.title = 'signup.newTitle'))).toBe(plain)
    expect(birthDay((d) => (d.russia.minimumAge = 21))).toBe(plain)
    expect(birthDay((d) => d.signup.steps.unshift({ id: 'intro', schema: { type: 'object' } }))).toBe(plain)
  })
  it('do not depend on the values, only on what kind of change happened where', () => {
    const to16 = change((d) => (d.russia.minimumAge = 16))[0].fingerprint
    const to17 = change((d) => (d.russia.minimumAge = 17))[0].fingerprint
    expect(to16).toBe(to17)
  })
  it('differ between documents, locations and kinds of change', () => {
    const removed = change((d) => (d.signup.steps[1].schema.required = ['firstName', 'birthDay'])).map((f) => f.fingerprint)
    const removedBirthDay = birthDay(() => {})
    expect(removed).not.toContain(removedBirthDay)
    const added = change((d) => d.signup.steps[0].schema.required.push('birthDay'))[0].fingerprint
    expect(added).not.toBe(removedBirthDay)
  })
  it('a reordered menu is a cosmetic note and keeps every item finding stable', () => {
    const findings = change((d) => d['left-menu'].items.reverse())
    expect(findings.map((f) => [f.rule, f.impact, f.severity])).toEqual([['order.changed', 'cosmetic', 'note']])
    const guests = change((d) => {
      d['left-menu'].items.reverse()
      delete d['left-menu'].items[1].loginOnly
    }).find((f) => f.rule === 'visibility.login.changed')!
    expect(guests.fingerprint).toBe(change((d) => delete d['left-menu'].items[1].loginOnly)[0].fingerprint)
  })
})
