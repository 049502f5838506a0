import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/http/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    // HTTP test files start a real server (documents validated, CEL compiled): give set-up room on a busy 2-core machine
    hookTimeout: 60000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: ONE on the 2-core CI machine, which left
    // a core idle while each file's server started. Two workers keep both cores busy (measured in
    // the README's test-time sentence); more only add contention to the HTTP tests' timings.
    maxWorkers: 2,
  },
})
