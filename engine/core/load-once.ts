/**
 * A lazy chunk (or any slow start) fetched once and shared by every caller; a failure is
 * forgotten, so the next caller tries again instead of inheriting a dead promise.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined
      throw error
    }))
}
