import { describe, expect, it, vi } from 'vitest'
import { createVersionWatch, documentsVersionOf } from '../../../engine/core/documents-version'
import { response } from './helpers'

describe('the documents version answer', () => {
  it('is its documentsVersion string; anything else (missing, not a string, not an object) is none', () => {
    expect(documentsVersionOf({ documentsVersion: 'v7' })).toBe('v7')
    expect(documentsVersionOf({ documentsVersion: 7 })).toBeNull()
    expect(documentsVersionOf({})).toBeNull()
    expect(documentsVersionOf(['v7'])).toBeNull()
    expect(documentsVersionOf(null)).toBeNull()
  })
})

describe('the version seen first', () => {
  it('the bootstrap\'s version counts only while none was seen, so a later poll of another one revalidates', async () => {
    let served = 'v2'
    const fetch = vi.fn(async () => response({ status: 200, body: { documentsVersion: served } }))
    const revalidate = vi.fn(async () => {})
    const watch = createVersionWatch({ fetch }, revalidate)
    watch.noteVersion('v1')
    watch.noteVersion('v0') // a second bootstrap does not move the version already seen
    expect(watch.version()).toBe('v1')
    expect(await watch.checkVersion()).toBe(true)
    expect(revalidate).toHaveBeenCalledTimes(1)
    expect(watch.version()).toBe('v2')
    served = 'v2'
    expect(await watch.checkVersion()).toBe(false)
    expect(revalidate).toHaveBeenCalledTimes(1)
  })
})
