/**
 * First load (issue 10): the experiment groups last decided on this browser are read back before
 * the first render; anything unreadable in storage is no group, never a crash.
 */
import { describe, expect, it } from 'vitest'
import { LAST_EXPERIMENTS_KEY, lastExperiments } from '../../../kernel/experiments/last-groups'

const storing = (value: string | null) => ({ getItem: (key: string) => (key === LAST_EXPERIMENTS_KEY ? value : null) })

describe('the last decided experiment groups', () => {
  it('are read back as stored', () => {
    const groups = { registrationMotivation: { inTest: true, group: 'b' } }
    expect(lastExperiments(storing(JSON.stringify(groups)))).toEqual(groups)
  })

  it('are nothing when absent, not JSON, not an object, or storage is unavailable', () => {
    expect(lastExperiments(storing(null))).toBeUndefined()
    expect(lastExperiments(storing('{oops'))).toBeUndefined()
    expect(lastExperiments(storing('[1,2]'))).toBeUndefined()
    expect(lastExperiments(storing('"b"'))).toBeUndefined()
    expect(lastExperiments(undefined)).toBeUndefined()
    expect(lastExperiments({ getItem: () => { throw new Error('denied') } })).toBeUndefined()
  })
})
