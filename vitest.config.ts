import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files that take much longer than the rest, longest first: they start before everything else.
 * Vitest orders files by the last run's durations when its cache has them, and otherwise (a fresh
 * clone, as in CI) by size, largest first. That put the route fuzzer, a short file that takes about
 * 100 s alone and 240 s on the loaded CI machine, 98th of 147 and its production twin 142nd, so
 * they ran at the end on one worker while the other had nothing left to do. Started first, the
 * other worker runs the rest of the suite beside them.
 */
const LONGEST_FIRST = ['tests/http/fuzz/routes.test.ts', 'tests/http/fuzz/production.test.ts']

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path))
      return at < 0 ? LONGEST_FIRST.length : at
    }
    // a stable sort: every other file keeps Vitest's own order
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

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
    sequence: { sequencer: LongestFirst },
  },
})
