/**
 * The header stays readable in every section theme (spec §1: light, dark, lgames, vsports,
 * esports): header text, the filled and outlined header buttons and the focus ring are checked
 * against WCAG 2.1 — 4.5:1 for text, 3:1 for a button's edge and the focus ring on the header.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { THEMES } from '../../../kernel/documents/kinds'

const css = readFileSync(resolve(import.meta.dirname, '../../../web/styles/themes.css'), 'utf8')

function themeTokens(theme: string): Record<string, string> {
  const block = new RegExp(`\\[data-theme='${theme}'\\][^{]*\\{([^}]*)\\}`).exec(css)?.[1] ?? ''
  return Object.fromEntries([...block.matchAll(/--([a-z0-9-]+):\s*(#[0-9a-f]{6})/gi)].map(([, name, value]) => [name, value]))
}

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light + 0.05) / (dark + 0.05)
}

describe('header contrast per theme', () => {
  it('the checker agrees with WCAG: black on white is 21:1', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
  })

  for (const theme of THEMES)
    it(`${theme}: header text, Sign up/Deposit, Log in and the focus ring are readable on the header`, () => {
      const t = themeTokens(theme)
      for (const token of ['color-header', 'color-header-text', 'color-header-cta', 'color-header-cta-text', 'color-header-line', 'color-header-focus'])
        expect(t[token], `${theme} --${token}`).toMatch(/^#/)
      expect(contrast(t['color-header-text'], t['color-header'])).toBeGreaterThanOrEqual(4.5)
      expect(contrast(t['color-header-cta-text'], t['color-header-cta'])).toBeGreaterThanOrEqual(4.5)
      expect(contrast(t['color-header-cta'], t['color-header'])).toBeGreaterThanOrEqual(3)
      expect(contrast(t['color-header-line'], t['color-header'])).toBeGreaterThanOrEqual(3)
      expect(contrast(t['color-header-focus'], t['color-header'])).toBeGreaterThanOrEqual(3)
    })
})

/**
 * Forms take their colours from the section theme (issue 34: the form buttons were a fixed blue on a
 * green and yellow site): form.css names only theme tokens, and each theme's primary button text is
 * readable on it (4.5:1), its danger colour on the surface (4.5:1), its focus ring on the surface (3:1).
 */
describe('form colours per theme', () => {
  const formCss = readFileSync(resolve(import.meta.dirname, '../../../engine/renderers/form/form.css'), 'utf8')

  it('form.css uses only the theme tokens (no fixed colour, no token the themes do not define)', () => {
    const used = [...formCss.matchAll(/var\(--([a-z0-9-]+)([^)]*)\)/g)].map(([, name, fallback]) => ({ name, fallback }))
    expect(used.length).toBeGreaterThan(0)
    const defined = themeTokens('light')
    for (const { name, fallback } of used.filter((u) => u.name !== 'success')) {
      expect(defined[name], `--${name} is a theme token`).toMatch(/^#/)
      expect(fallback, `--${name} has no fixed fallback`).toBe('')
    }
    expect(formCss).not.toMatch(/#1a73e8/i)
  })

  for (const theme of THEMES)
    it(`${theme}: the primary button's text, error texts and the focus ring are readable`, () => {
      const t = themeTokens(theme)
      expect(contrast(t['color-primary-text'], t['color-primary'])).toBeGreaterThanOrEqual(4.5)
      expect(contrast(t['color-danger'], t['color-surface'])).toBeGreaterThanOrEqual(4.5)
      expect(contrast(t['color-focus'], t['color-surface'])).toBeGreaterThanOrEqual(3)
    })
})
