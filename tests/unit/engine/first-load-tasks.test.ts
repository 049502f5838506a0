/**
 * First load on a phone (issue 10, fourth item of its targets: no task much over 50 ms before the
 * page is idle). The parts that decide where a task ends: the boot's steps each resume in a task of
 * their own, and an idle slice of stored-copy writes never pays for the translations bundle.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDocumentClient } from '../../../engine/core/documents'
import { nextTask } from '../../../engine/renderers/shell/after-first-screen'
import { memoryStorage, response } from './helpers'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the boot yields to the browser between its steps', () => {
  it('nextTask resumes only after the current task has ended: every microtask queued before it has run', async () => {
    vi.stubGlobal('window', { setTimeout })
    let chainDone = false
    let seenAtResume: boolean | null = null
    const resumed = nextTask().then(() => {
      seenAtResume = chainDone
    })
    // a long chain of microtasks, all part of the current task
    let chain = Promise.resolve()
    for (let i = 0; i < 50; i++) chain = chain.then(() => undefined)
    void chain.then(() => {
      chainDone = true
    })
    await resumed
    expect(seenAtResume).toBe(true)
  })

  it("nextTask uses the browser's scheduler.yield when it has one", async () => {
    const schedulerYield = vi.fn(() => Promise.resolve())
    vi.stubGlobal('window', { scheduler: { yield: schedulerYield } })
    await nextTask()
    expect(schedulerYield).toHaveBeenCalledTimes(1)
  })
})

describe('an idle slice of stored-copy writes never stringifies the translations bundle', () => {
  it('the bundle waits, neither read back nor stringified, for the unhurried write (page hidden or left), which stores it', async () => {
    const storage = memoryStorage()
    const scheduled: Array<(shouldYield?: () => boolean) => void> = []
    const toJSON = vi.fn(() => {
      return { kind: 'translations', id: 'en', locale: 'en', resources: { 'shell.brand': 'Parlay' } }
    })
    const bundle = { kind: 'translations', id: 'en', locale: 'en', resources: { 'shell.brand': 'Parlay' }, toJSON }
    const lobby = { kind: 'screen', id: 'casino-lobby', route: '/casino/lobby', body: [] }
    // the bundle arrives as the object itself, as the page's boot data hands it over (bootResponse)
    const asObject = (body: unknown) => Object.defineProperty(new Response(null, { status: 200, headers: { etag: '"1"' } }), 'json', { value: async () => body })
    const fetch = vi.fn(async (url: string) => (url.startsWith('/api/i18n/') ? asObject(bundle) : response({ status: 200, body: lobby, etag: '"1"' })))
    const client = createDocumentClient({ fetch, storage, persist: (write) => scheduled.push(write) })
    await client.loadTranslations('en')
    await client.load('screen', 'casino-lobby')
    toJSON.mockClear()
    const reads = vi.spyOn(storage, 'getItem')
    scheduled[0](() => false)
    expect(toJSON).not.toHaveBeenCalled()
    expect(reads.mock.calls.map(([key]) => key)).not.toContain('parlay.doc:translations/en/en')
    expect([...storage.data.keys()]).toEqual(['parlay.doc:screen/casino-lobby/en'])
    scheduled[0]()
    expect(toJSON).toHaveBeenCalled()
    expect(JSON.parse(storage.data.get('parlay.doc:translations/en/en') ?? '{}').document.resources).toEqual({ 'shell.brand': 'Parlay' })
  })
})
