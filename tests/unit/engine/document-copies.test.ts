import { describe, expect, it } from 'vitest'
import { createDocumentCopies, LARGE_COPY_CHARS, type DocumentCopy } from '../../../engine/core/document-copies'
import { memoryStorage } from './helpers'

const copy = (id: string, etag: string | null, document: unknown = { id }): DocumentCopy => ({ url: `/api/documents/screen/${id}`, kind: 'screen', id, etag, document })

describe('the last good copies of documents', () => {
  it('a copy is stored for a later page (read back from storage alone); a preview\'s copy never is', () => {
    const storage = memoryStorage()
    const copies = createDocumentCopies(storage)
    copies.remember('screen/lobby/en', copy('lobby', '"1"'))
    copies.remember('preview:tok/screen/lobby/en', copy('lobby', '"d"', { draft: true }))
    const later = createDocumentCopies(storage)
    expect(later.lastGood('screen/lobby/en')).toEqual(copy('lobby', '"1"'))
    expect(later.lastGood('preview:tok/screen/lobby/en')).toBeUndefined()
    expect(later.inMemory('screen/lobby/en')).toEqual(copy('lobby', '"1"')) // read once, then kept in memory
  })

  it('a copy stored already with the same ETag is not written again', () => {
    const storage = memoryStorage()
    createDocumentCopies(storage).remember('screen/lobby/en', copy('lobby', '"1"'))
    let writes = 0
    const counting = { ...storage, setItem: (k: string, v: string) => (writes++, storage.setItem(k, v)) }
    createDocumentCopies(counting).remember('screen/lobby/en', copy('lobby', '"1"'))
    expect(writes).toBe(0)
    createDocumentCopies(counting).remember('screen/lobby/en', copy('lobby', '"2"'))
    expect(writes).toBe(1)
  })

  it('in an idle slice a large copy waits for the unhurried write (page hidden or left); a small one is written at once', () => {
    const storage = memoryStorage()
    const writes: Array<(shouldYield?: () => boolean) => void> = []
    const copies = createDocumentCopies(storage, (write) => writes.push(write))
    copies.remember('screen/big/en', copy('big', '"1"', { text: 'x'.repeat(LARGE_COPY_CHARS) }))
    copies.remember('screen/small/en', copy('small', '"1"'))
    writes[0](() => false) // an idle slice
    expect(storage.getItem('parlay.doc:screen/small/en')).not.toBeNull()
    expect(storage.getItem('parlay.doc:screen/big/en')).toBeNull()
    writes[0]() // the unhurried write
    expect(storage.getItem('parlay.doc:screen/big/en')).not.toBeNull()
  })
})
