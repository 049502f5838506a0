/**
 * The client build. Root `web/`, output `dist/`. Forms (rjsf, its validator module and our form
 * renderer) are reachable only through `React.lazy(() => import('../form/FormNode'))`, and the
 * domain actions (auth, join) only through a dynamic import, so the bundler's own code splitting
 * puts them in lazy chunks: the lobby's first load never pays for them. (A manual chunk group was
 * tried: with dependency recursion it pulled React into the forms chunk, and without it rolldown
 * broke the chunk's init order; the lazy boundary alone gives the right split.) No plugin here may emit `eval`/`new Function`: the site's
 * CSP forbids both (checked after every build by the e2e suite and the architecture test).
 *
 * First load (issue 10): the build writes a manifest (the server preloads a route's lazy chunks
 * from it), precompresses every text file as .br and .gz (served by negotiation, server/app.ts),
 * and generates a Workbox service worker (vite-plugin-pwa, generateSW): the app shell and the
 * hashed files precached; pages and the public documents APIs network-first with the last good
 * answer kept for offline; nothing else (auth, heartbeat, sign-up, admin) is ever cached.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { transformSync } from 'esbuild'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

const webRoot = fileURLToPath(new URL('./web', import.meta.url))
const outDir = fileURLToPath(new URL('./dist', import.meta.url))

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/
// every script and style is precompressed, however small (a 429-byte chunk still saves a third);
// other small text files are not worth the two extra files
const MIN_BYTES = 512
const ALWAYS = /\.(js|mjs|css)$/

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* filesUnder(path)
    else yield path
  }
}

/** Writes `file.br` (quality 11) and `file.gz` (level 9) beside every text file of the build,
 * after the service worker is generated so it is compressed too. */
export function precompress(): Plugin {
  let dir = outDir
  return {
    name: 'parlay:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      dir = config.build.outDir
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of filesUnder(dir)) {
          if (!COMPRESSIBLE.test(file) || file.includes(`${join(dir, '.vite')}`)) continue
          const content = readFileSync(file)
          if (content.length < MIN_BYTES && !ALWAYS.test(file)) continue
          writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }))
          writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }))
        }
      },
    },
  }
}

/**
 * The entry starts after the first paint (issue 10): the page's `<script type="module">` and its
 * module preloads are replaced by one small deferred classic script (web/start-after-paint.js,
 * emitted as a hashed asset, so it is immutable and precached like the rest) that adds them once
 * the server-rendered first screen has painted. `data-entry` and `data-preload` carry the URLs.
 */
export function startAfterPaint(): Plugin {
  // minified by esbuild (the bundler's own minifier is not run on an emitted asset): the phone
  // downloads ~0.4 KB brotli instead of ~0.7 KB
  const source = transformSync(readFileSync(fileURLToPath(new URL('./web/start-after-paint.js', import.meta.url)), 'utf8'), { minify: true, target: 'es2015', legalComments: 'none' }).code
  const fileName = `assets/start-${createHash('sha256').update(source).digest('base64url').replace(/[-_]/g, '').slice(0, 8)}.js`
  return {
    name: 'parlay:start-after-paint',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source })
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html)
        if (!entry) throw new Error('start-after-paint: no entry script in index.html')
        const preloads: string[] = []
        const rest = html.replace(entry[0], '').replace(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g, (_all, href: string) => {
          preloads.push(href)
          return ''
        })
        const tag = `<script defer src="/${fileName}" data-entry="${entry[1]}" data-preload="${preloads.join(',')}"></script>`
        return rest.replace('</head>', `    ${tag}\n  </head>`)
      },
    },
  }
}

/** rjsf's getDecimalSeparator, computed once per language list (engine/renderers/form/decimal-separator.ts). */
export function cachedDecimalSeparator(): Plugin {
  const replacement = fileURLToPath(new URL('./engine/renderers/form/decimal-separator.ts', import.meta.url))
  return {
    name: 'parlay:rjsf-decimal-separator',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer && /[\\/]@rjsf[\\/]utils[\\/]/.test(importer) && /^\.\/getDecimalSeparator\.js$/.test(source)) return replacement
      return null
    },
  }
}

/**
 * The action definitions (kernel/actions) are data the browser checks params against;
 * their `description` texts are for the studio and the docs, not for a punter's phone. The site
 * build blanks each `description: '…'` property with spaces (positions unchanged, so the source map
 * holds); the studio build keeps them. About 1 KB brotli of the lobby's first load (issue 18).
 */
export function definitionsWithoutDescriptions(): Plugin {
  return {
    name: 'parlay:definitions-without-descriptions',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]kernel[\\/]actions[\\/][^\\/]+\.ts$/.test(id)) return null
      const ranges: [number, number][] = []
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return
        if (Array.isArray(node)) return node.forEach(visit)
        const n = node as { type?: string; key?: { type: string; name?: string; value?: unknown }; value?: { type: string; value?: unknown; expressions?: unknown[] }; start: number; end: number }
        const named = n.key && (n.key.name === 'description' || n.key.value === 'description')
        const text = n.value && ((n.value.type === 'Literal' && typeof n.value.value === 'string') || (n.value.type === 'TemplateLiteral' && n.value.expressions?.length === 0))
        if (n.type === 'Property' && named && text) {
          let end = n.end
          while (/\s/.test(code[end] ?? '')) end++
          ranges.push([n.start, code[end] === ',' ? end + 1 : n.end])
          return
        }
        for (const value of Object.values(n)) if (value && typeof value === 'object') visit(value)
      }
      visit(this.parse(code))
      if (ranges.length === 0) return null
      let out = code
      for (const [start, end] of ranges.reverse()) out = out.slice(0, start) + out.slice(start, end).replace(/[^\n]/g, ' ') + out.slice(end)
      return { code: out, map: null }
    },
  }
}

/** Same-origin, published (no draft preview) answers of the public documents APIs. */
const isPublicDocument = ({ url, sameOrigin }: { url: URL; sameOrigin: boolean }) =>
  sameOrigin &&
  !url.searchParams.has('preview') &&
  (url.pathname === '/api/site' || url.pathname === '/api/remote-config' || url.pathname.startsWith('/api/documents/') || url.pathname.startsWith('/api/i18n/'))

/** The public content a screen shows (catalogue, events, images, promotions, the dictionary),
 * never a call that carries a session: kept so an offline reload shows what was shown (issue 31).
 * Self-contained: Workbox writes the function's source into the worker (no outer names). */
const isPublicContent = ({ url, request, sameOrigin }: { url: URL; request: Request; sameOrigin: boolean }) =>
  sameOrigin &&
  request.method === 'GET' &&
  ['/api/content/', '/api/promotions', '/mobile-gate/api/v1/dictionary/'].some((prefix) => url.pathname.startsWith(prefix)) &&
  !request.headers.has('authorization') &&
  !request.headers.has('punter-session-hash')

/** Page loads of the site (not the admin console, not a draft preview); `x-parlay-warm: page` is
 * the page itself re-asked by the client once the worker first controls it (service-worker.ts). */
const isSitePage = ({ request, url }: { request: Request; url: URL }) =>
  (request.mode === 'navigate' || request.headers.get('x-parlay-warm') === 'page') && !url.pathname.startsWith('/admin') && !url.searchParams.has('preview')

export default defineConfig({
  root: webRoot,
  base: '/',
  plugins: [
    cachedDecimalSeparator(),
    definitionsWithoutDescriptions(),
    startAfterPaint(),
    react(),
    VitePWA({
      strategies: 'generateSW',
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      workbox: {
        mode: 'production',
        sourcemap: false,
        inlineWorkboxRuntime: true,
        globPatterns: ['**/*.{js,css,html,svg}'],
        globIgnores: ['**/*.br', '**/*.gz', '.vite/**'],
        // pages are not answered from the shell while online: see the 'pages' route below
        navigateFallback: null,
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: false,
        runtimeCaching: [
          {
            urlPattern: isSitePage,
            handler: 'NetworkFirst',
            options: {
              cacheName: 'parlay-pages',
              networkTimeoutSeconds: 6,
              expiration: { maxEntries: 40, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
              matchOptions: { ignoreVary: true },
              // a page never loaded while online: the app shell, which shows the offline page
              precacheFallback: { fallbackURL: 'index.html' },
            },
          },
          {
            urlPattern: isPublicDocument,
            handler: 'NetworkFirst',
            options: {
              cacheName: 'parlay-documents',
              networkTimeoutSeconds: 6,
              expiration: { maxEntries: 300, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
              matchOptions: { ignoreVary: true },
            },
          },
          {
            urlPattern: isPublicContent,
            handler: 'NetworkFirst',
            options: {
              cacheName: 'parlay-content',
              networkTimeoutSeconds: 6,
              expiration: { maxEntries: 200, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
              matchOptions: { ignoreVary: true },
            },
          },
        ],
      },
    }),
    precompress(),
  ],
  publicDir: fileURLToPath(new URL('./web/public', import.meta.url)),
  // `npx vite` for UI work: the API comes from `npm start` on port 3000
  server: {
    fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] },
    proxy: { '/api': 'http://localhost:3000', '/ping.json': 'http://localhost:3000' },
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // hidden source maps: written beside each file for the admin error view (server/services/admin.ts),
    // never referenced from the files and never served (server/app.ts refuses *.map)
    sourcemap: 'hidden',
    manifest: true,
    modulePreload: { polyfill: false },
    cssCodeSplit: true,
  },
})
