/**
 * The client's files (server/app.ts, after the modules and before the pages): the favicon, no
 * source maps for punters, hashed assets as immutable files without document-only headers, and the
 * rest of the build (sw.js, index.html) revalidated. Precompressed at build (brotli and gzip beside
 * each file) and picked by Accept-Encoding.
 */
import type express from 'express'
import expressStaticGzip from 'express-static-gzip'
import { existsSync } from 'node:fs'
import { join, sep } from 'node:path'
import { HTTP_ERRORS, sendError } from './envelope'

/**
 * Headers that mean something only on a document (or a worker script): the CSP, framing, opener,
 * referrer, HSTS and feature policies. A hashed script, style or image never becomes a document
 * (served with nosniff and its own type), so they are dropped there: about 800 bytes of headers
 * on every asset request a phone makes (issue 10: bytes before the first paint). What protects a
 * subresource stays: X-Content-Type-Options, Cross-Origin-Resource-Policy, the request id.
 * sw.js and the pages are not under assets/ and keep every header.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'Content-Security-Policy',
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'Referrer-Policy',
  'Strict-Transport-Security',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
  'Permissions-Policy',
]

export function serveClientFiles(app: express.Application, distDir: string): void {
  const hashedAssets = join(distDir, 'assets') + sep
  const favicon = join(distDir, 'favicon.svg')
  app.get('/favicon.ico', (_req, res, next) => {
    if (!existsSync(favicon)) return next()
    res.setHeader('Cache-Control', 'public, max-age=86400')
    res.type('image/svg+xml').sendFile(favicon)
  })
  // the build's hidden source maps are for the admin error view only, never for punters
  app.use((req, res, next) => (/\.map$/i.test(req.path) ? sendError(res, 404, HTTP_ERRORS.notFound) : next()))
  // Hashed assets: a name is never reused for other bytes, so they carry no validators (ETag,
  // Last-Modified: an immutable file is never revalidated) and no Accept-Ranges (a script is
  // never fetched in parts) — about 100 bytes less on each script and style of every first load.
  app.use(
    '/assets',
    expressStaticGzip(hashedAssets, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        index: false,
        etag: false,
        lastModified: false,
        acceptRanges: false,
        setHeaders(res) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
          for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name)
        },
      },
    }),
  )
  app.use(
    expressStaticGzip(distDir, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { index: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') },
    }),
  )
}
