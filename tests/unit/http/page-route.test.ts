/**
 * A page's revalidation (server/http/page-route.ts): If-None-Match names the page's ETag, as a weak
 * or strong tag, alone or in a list, and only then does the page answer 304.
 */
import { describe, expect, it } from 'vitest'
import { etagMatches } from '../../../server/http/page-route'

const ETAG = '"p-3f2a"'

describe('If-None-Match against a page ETag', () => {
  it('the same tag matches, strong or weak (W/), alone or anywhere in a comma list with spaces', () => {
    expect(etagMatches('"p-3f2a"', ETAG)).toBe(true)
    expect(etagMatches('W/"p-3f2a"', ETAG)).toBe(true)
    expect(etagMatches('"old", "p-3f2a"', ETAG)).toBe(true)
    expect(etagMatches('"old",W/"p-3f2a" ', ETAG)).toBe(true)
  })

  it('no header, an empty one, another tag or a tag that only contains it never matches', () => {
    expect(etagMatches(undefined, ETAG)).toBe(false)
    expect(etagMatches('', ETAG)).toBe(false)
    expect(etagMatches('"p-3f2b"', ETAG)).toBe(false)
    expect(etagMatches('"xp-3f2a"', ETAG)).toBe(false)
    expect(etagMatches('p-3f2a', ETAG)).toBe(false)
  })
})
