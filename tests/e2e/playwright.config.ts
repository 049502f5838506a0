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
  // Three workers on the 2-core CI machine: a browser test waits on the browser, the server and
  // the network in turn, so two workers left the cores idle part of the time (docs/testing.md: how long it takes).
  workers: 3,
  fullyParallel: false,
  // One retry: a test that passes only on its retry is printed as "flaky" in the list and is a
  // defect to fix (each so far was a real race in the client), but one slow moment of a loaded
  // 2-core machine no longer throws away a whole landing. `--retries=0` when hunting flakes.
  retries: 1,
  // Upper bounds on waiting for a state, never a sleep: a busy 2-core CI machine can take several
  // seconds for a login round trip (a 5 s expect limit failed there once), so they are generous.
  timeout: 90_000,
  expect: { timeout: 20_000 },
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
