/**
 * Browser tests against the real server in Debian Chromium. The client is built once per run into
 * a temp folder (global-setup), and each worker starts its own server on an ephemeral port with a
 * temp data dir and a temp copy of `schemas/` (see fixtures.ts), so tests may edit documents.
 */
import { defineConfig } from '@playwright/test'

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './global-setup.ts',
  workers: 2,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  use: {
    viewport: { width: 360, height: 740 },
    trace: 'off',
    // The site's service worker answers requests itself, which page.route cannot intercept: blocked
    // here, allowed only in first-load.spec.ts (the offline tests).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
})
