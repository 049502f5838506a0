/**
 * The operator studio's build (issue 19), separate from the site's (vite.config.ts) so the
 * punter's bundle and its entry chunks never change because of it: root `studio/`, served by the
 * admin module at `/admin/studio/` from `<distDir>/.studio` (server/admin/studio.ts). No plugin or
 * dependency may emit `eval`/`new Function` (the admin pages run under the site's CSP):
 * codemirror-json-schema's markdown renderer (markdown-it + shiki, whose oniguruma engine needs
 * WebAssembly compilation) is replaced by a plain-text one (studio/plain-markdown.ts).
 *
 * The page carries a per-response CSP nonce for styles (docs/adr/0004-code-editor-under-csp.md):
 * vite writes a placeholder on its tags and in a `csp-nonce` meta element, and the server replaces
 * it on every answer (server/admin/studio.ts); the code editor reads the nonce from that element.
 */
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const studioRoot = fileURLToPath(new URL('./studio', import.meta.url))
const plainMarkdown = fileURLToPath(new URL('./studio/plain-markdown.ts', import.meta.url))

/**
 * json5's build carries core-js's global lookup, `… : Function('return this')()`: never reached in
 * a browser (it finds `window` first), but it is the one `Function(` in the studio's bundle, and the
 * admin pages run under a CSP without 'unsafe-eval'. It becomes `globalThis`.
 */
function noGlobalFunction() {
  return {
    name: 'parlay-no-global-function',
    transform(code: string, id: string) {
      if (!id.includes('/node_modules/json5/')) return null
      return { code: code.replaceAll("Function('return this')()", 'globalThis'), map: null }
    },
  }
}

export default defineConfig({
  root: studioRoot,
  base: '/admin/studio/',
  publicDir: false,
  // served by the admin module, compressed on the fly like the other admin answers (no precompressed files)
  plugins: [react(), noGlobalFunction()],
  html: { cspNonce: 'PARLAY_STUDIO_CSP_NONCE' },
  resolve: {
    alias: [{ find: /^\.\.\/utils\/markdown(\.js)?$/, replacement: plainMarkdown }],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/.studio', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    // an admin tool on a desktop: one 1.2 MB file (373 kB gzip; CodeMirror, rjsf, React) is fine
    chunkSizeWarningLimit: 1500,
  },
})
