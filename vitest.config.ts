import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/http/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    // HTTP test files start a real server (documents validated, CEL compiled): give set-up room on a busy 2-core machine
    hookTimeout: 60000,
    pool: 'forks',
  },
})
