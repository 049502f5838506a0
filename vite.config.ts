/**
 * The client build. Root `web/`, output `dist/`. Forms (rjsf, ajv and our form renderer) are only
 * reachable through `React.lazy`, and the group below keeps them in one lazy `forms` chunk so the
 * lobby's first load never pays for them. No plugin here may emit `eval`/`new Function`: the site's
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
    rolldownOptions: {
      output: {
        codeSplitting: {
          // only the matched modules move; their shared dependencies (react …) stay with the entry
          includeDependenciesRecursively: false,
          groups: [{ name: 'forms', test: /node_modules[\\/](@rjsf|ajv|ajv-formats)[\\/]|engine[\\/]renderers[\\/]form[\\/]/ }],
        },
      },
    },
  },
})
