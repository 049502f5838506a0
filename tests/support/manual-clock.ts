/**
 * A manual clock with scheduled tasks for unit tests of timer-driven clients (analytics uploads,
 * replay batches): `schedule` is what the client is given, `advance` moves time and runs every
 * task that falls due (and what those start), like time passing. No real timers, no sleeps.
 */
export function manualClock() {
  let clock = 0
  const timers: Array<{ at: number; task: () => void; cancelled: boolean }> = []
  function schedule(task: () => void, ms: number): () => void {
    const timer = { at: clock + ms, task, cancelled: false }
    timers.push(timer)
    return () => void (timer.cancelled = true)
  }
  async function advance(ms: number) {
    const until = clock + ms
    for (;;) {
      for (let i = 0; i < 10; i++) await Promise.resolve()
      const due = timers.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      due.cancelled = true
      clock = due.at
      due.task()
    }
    clock = until
  }
  return { now: () => clock, schedule, advance }
}
