/**
 * The client build. Root `web/`, output `dist/`. Forms (rjsf, its validator module and our form
 * renderer) are reachable only through `React.lazy(() => import('../form/FormNode'))`, and the
 * domain actions (auth, join) only through a dynamic import, so the bundler's own code splitting
 * puts them in lazy chunks: the lobby's first load never pays for them. (A manual chunk group was
 * tried: with dependency recursion it pulled React into the forms chunk, and without it rolldown
 * broke the chunk's init order; the lazy boundary alone gives the right split.) No plugin here may emit `eval`/`new Function`: the site's
 * CSP forbids both (checked after every build by the e2e suite and the architecture test).
 */
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const webRoot = fileURLToPath(new URL('./web', import.meta.url))
const outDir = fileURLToPath(new URL('./dist', import.meta.url))

export default defineConfig({
  root: webRoot,
  base: '/',
  plugins: [react()],
  publicDir: false,
  // `npx vite` for UI work: the API comes from `npm start` on port 3000
  server: {
    fs: { allow: [fileURLToPath(new URL('.', import.meta.url))] },
    proxy: { '/api': 'http://localhost:3000', '/ping.json': 'http://localhost:3000' },
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    cssCodeSplit: true,
  },
})
