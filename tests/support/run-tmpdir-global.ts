/**
 * Global set-up: at the end of the run, removes the run's own temporary folder (vitest.config.ts
 * points TMPDIR at a fresh /dev/shm/parlay-vitest-* folder, PARLAY_RUN_TMPDIR). Files that leave
 * their folders behind would otherwise keep them in memory until the machine restarts.
 */
import { rmSync } from 'node:fs'

export default function setup(): () => void {
  return () => {
    const dir = process.env.PARLAY_RUN_TMPDIR
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
}
