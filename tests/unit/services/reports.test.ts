/**
 * Error reports and the fingerprint link's timing (issue 18): stack frames read from V8 and
 * Firefox stacks; an envelope the server's parser reads back; a built-file frame mapped to its
 * source line through a hidden source map; the link's 5 attempts with back-off 100–3000 ms.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { SourceMapGenerator } from 'source-map-js'
import { describe, expect, it } from 'vitest'
import { errorEnvelope, framesOf } from '../../../engine/services/error-envelope'
import { backoffMs, LINK_ATTEMPTS, withAttempts } from '../../../engine/services/recognition'
import { parseEnvelope } from '../../../server/services/errors'
import { projectPath, sourceMapper } from '../../../server/services/admin'

describe('error envelopes', () => {
  it('frames are read from a V8 stack, outermost call first', () => {
    const stack = 'TypeError: x is not a function\n    at boom (http://localhost/assets/index-abc.js:1:120)\n    at http://localhost/assets/index-abc.js:2:5'
    expect(framesOf(stack)).toEqual([
      { filename: 'http://localhost/assets/index-abc.js', lineno: 2, colno: 5 },
      { filename: 'http://localhost/assets/index-abc.js', lineno: 1, colno: 120, function: 'boom' },
    ])
  })

  it('frames are read from a Firefox/Safari stack too', () => {
    expect(framesOf('boom@http://localhost/assets/a.js:3:7')).toEqual([{ filename: 'http://localhost/assets/a.js', lineno: 3, colno: 7, function: 'boom' }])
  })

  it('an envelope the client writes is read back by the server with kind, message and frames', () => {
    const body = errorEnvelope({ kind: 'socket', type: 'SocketSendError', message: 'BET message error', stack: '    at send (http://h/assets/x.js:1:2)', release: '1.22.0', url: 'http://h/', now: 0 })
    expect(parseEnvelope(body)).toEqual([{ origin: 'client', kind: 'socket', message: 'BET message error', frames: [{ file: 'http://h/assets/x.js', line: 1, column: 2, function: 'send' }], requestId: null, release: '1.22.0', url: 'http://h/' }])
  })

  it('a built-file frame is mapped to its source file and line by the hidden source map', () => {
    const dist = mkdtempSync(join(tmpdir(), 'parlay-maps-'))
    mkdirSync(join(dist, 'assets'))
    const map = new SourceMapGenerator({ file: 'index-abc.js' })
    map.addMapping({ generated: { line: 1, column: 119 }, original: { line: 42, column: 4 }, source: '../engine/core/report.ts', name: 'report' })
    writeFileSync(join(dist, 'assets', 'index-abc.js.map'), map.toString())
    const mapped = sourceMapper(dist)({ file: 'http://localhost/assets/index-abc.js', line: 1, column: 120 })
    expect(mapped.source).toEqual({ file: 'engine/core/report.ts', line: 42, column: 5, name: 'report' })
    expect(sourceMapper(dist)({ file: 'http://localhost/assets/other.js', line: 1, column: 1 }).source).toBeUndefined()
  })

  it('a build made outside the project (a temp dir) still names the source by its project path', () => {
    const project = resolve(import.meta.dirname, '..', '..', '..')
    const mapDir = join(tmpdir(), 'parlay-build-x', 'assets')
    expect(projectPath(mapDir, relative(mapDir, join(project, 'engine', 'services', 'browser.ts')))).toBe('engine/services/browser.ts')
  })
})

describe('the recognition link\'s attempts (spec §9: 5, back-off 100–3000 ms)', () => {
  it('back-off doubles from 100 ms and never passes 3000 ms', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(backoffMs)).toEqual([100, 200, 400, 800, 1600, 3000, 3000])
  })

  it('a failing link is tried 5 times, waiting the back-off between, then gives up', async () => {
    const waits: number[] = []
    let tries = 0
    await expect(withAttempts(async () => { tries++; throw new Error('down') }, async (ms) => void waits.push(ms))).rejects.toThrow('down')
    expect(tries).toBe(LINK_ATTEMPTS)
    expect(waits).toEqual([100, 200, 400, 800])
  })

  it('a link that succeeds at the third try stops there', async () => {
    let tries = 0
    const result = await withAttempts(async () => (++tries < 3 ? Promise.reject(new Error('x')) : 'linked'), async () => {})
    expect(result).toBe('linked')
    expect(tries).toBe(3)
  })
})
