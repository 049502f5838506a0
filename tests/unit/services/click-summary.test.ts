/**
 * Interaction summaries (spec §9 "click aggregation window 1 hour"; spec §7 "interaction summaries
 * by beacon"): taps are counted per page and element over windows of at most one hour. Manual clock.
 */
import { describe, expect, it } from 'vitest'
import { clickTargetName, CLICK_WINDOW_MS, createClickSummary, MAX_CLICK_TARGETS, OTHER_TARGET } from '../../../engine/core/click-summary'

describe('click aggregation (spec §9: window 1 hour)', () => {
  it('the window is one hour', () => expect(CLICK_WINDOW_MS).toBe(3_600_000))

  it('taps on the same element of the same page are one count; the window spans the first to the last tap', () => {
    let clock = 1_000
    const summary = createClickSummary(() => clock)
    summary.record('/casino/lobby', 'game-tile')
    clock += 5_000
    summary.record('/casino/lobby', 'game-tile')
    summary.record('/sport/live', 'odds-button')
    expect(summary.take()).toEqual({
      windowStart: 1_000,
      windowEnd: 6_000,
      clicks: [
        { page: '/casino/lobby', target: 'game-tile', clicks: 2 },
        { page: '/sport/live', target: 'odds-button', clicks: 1 },
      ],
    })
    expect(summary.take()).toBeNull()
  })

  it('a tap an hour or more after the window opened closes it and opens the next', () => {
    let clock = 0
    const summary = createClickSummary(() => clock)
    expect(summary.record('/', 'a')).toBeNull()
    clock = CLICK_WINDOW_MS - 1
    expect(summary.record('/', 'a')).toBeNull()
    clock = CLICK_WINDOW_MS
    expect(summary.record('/', 'b')).toEqual({ windowStart: 0, windowEnd: CLICK_WINDOW_MS - 1, clicks: [{ page: '/', target: 'a', clicks: 2 }] })
    expect(summary.take()).toEqual({ windowStart: CLICK_WINDOW_MS, windowEnd: CLICK_WINDOW_MS, clicks: [{ page: '/', target: 'b', clicks: 1 }] })
  })

  it(`a window counts at most ${MAX_CLICK_TARGETS} page × element pairs; taps beyond are counted per page as "other"`, () => {
    const summary = createClickSummary(() => 0)
    for (let n = 0; n < MAX_CLICK_TARGETS + 5; n++) summary.record('/p', `t${n}`)
    const clicks = summary.take()!.clicks
    expect(clicks).toHaveLength(MAX_CLICK_TARGETS + 1)
    expect(clicks.at(-1)).toEqual({ page: '/p', target: OTHER_TARGET, clicks: 5 })
  })

  it('an element is named by its data-testid or its tag and role, never by its text', () => {
    const element = (testid: string | null, tag = 'BUTTON', role: string | null = null) => ({
      tagName: tag,
      getAttribute: (name: string) => (name === 'role' ? role : null),
      closest: () => (testid ? { getAttribute: () => testid } : null),
    })
    expect(clickTargetName(element('header-deposit'))).toBe('header-deposit')
    expect(clickTargetName(element(null, 'DIV', 'tab'))).toBe('div[tab]')
    expect(clickTargetName(element(null, 'A'))).toBe('a')
  })
})
