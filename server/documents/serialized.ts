/**
 * One run at a time for work a burst of events triggers (the folder watcher's reseeding): the
 * store's seeding reads the folder when it starts, so runs that overlapped could serve an older
 * set after a newer one.
 */
/**
 * Runs `task` for a call, never two at once: a call while one runs asks for one more run after it
 * (several such calls make one run). Returns the caller's trigger.
 */
export function serialized(task: () => Promise<unknown>): () => void {
  let running = false
  let again = false
  const run = async () => {
    running = true
    do {
      again = false
      await task()
    } while (again)
    running = false
  }
  return () => {
    if (running) again = true
    else void run()
  }
}
