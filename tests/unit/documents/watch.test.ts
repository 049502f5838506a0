/**
 * The folder watcher and the versioned store (issue 11 item 11, the publish path): when the store
 * governs the served set, a file change is handed to it and the watcher installs nothing from disk
 * itself. Otherwise a removed file would stop being served (and a studio-published document be
 * replaced by the folder's) for as long as the store takes to seed, though the deletion is only
 * proposed for review. And the store's reseeding runs one at a time.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDocumentService, type DocumentService } from '../../../server/documents/service'
import { serialized } from '../../../server/documents/serialized'
import { SCHEMAS_DIR } from '../../support/server'

const QUIZ = 'screens/account-quiz.json'
const request = { jurisdiction: 'curacao', locale: 'en', platform: 'web' as const }
let service: DocumentService | undefined
afterEach(() => service?.close())

function watchedCopy(): { root: string; service: DocumentService } {
  const root = mkdtempSync(join(tmpdir(), 'parlay-watch-'))
  cpSync(SCHEMAS_DIR, root, { recursive: true })
  service = createDocumentService({ root })
  service.reload()
  return { root, service }
}

describe('the documents watcher', () => {
  it('with a governing listener, a removed file is handed to it and stays served (nothing installed from disk)', async () => {
    const { root, service } = watchedCopy()
    const changes = vi.fn()
    service.onFilesChanged(changes)
    service.watch((error) => {
      throw error
    })
    expect(service.resolve('screen', 'account-quiz', request)).toBeDefined()
    rmSync(join(root, QUIZ))
    await vi.waitFor(() => expect(changes).toHaveBeenCalled(), { timeout: 10000, interval: 20 })
    expect(service.resolve('screen', 'account-quiz', request)).toBeDefined()
  })

  it('without one (no store), the folder is the served set: a removed file is gone after the reload', async () => {
    const { root, service } = watchedCopy()
    service.watch((error) => {
      throw error
    })
    rmSync(join(root, QUIZ))
    await vi.waitFor(() => expect(service.resolve('screen', 'account-quiz', request)).toBeUndefined(), { timeout: 10000, interval: 20 })
  })
})

describe('serialized reseeding', () => {
  it('never runs two at once; calls during a run make exactly one more run', async () => {
    let running = 0
    let most = 0
    let runs = 0
    const releases: Array<() => void> = []
    const trigger = serialized(async () => {
      running++
      runs++
      most = Math.max(most, running)
      await new Promise<void>((done) => releases.push(done))
      running--
    })
    trigger()
    trigger()
    trigger()
    expect(runs).toBe(1)
    releases.shift()!()
    await vi.waitFor(() => expect(runs).toBe(2))
    releases.shift()!()
    await vi.waitFor(() => expect(running).toBe(0))
    expect(runs).toBe(2)
    expect(most).toBe(1)
    trigger()
    expect(runs).toBe(3)
    releases.shift()!()
  })
})
