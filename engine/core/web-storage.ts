/**
 * The page's Web Storage, when the browser lets us have it. Reading `localStorage` throws in some
 * private modes and sandboxed frames, and it is absent under Node (unit tests): every caller gets
 * `undefined` then and carries on in memory.
 */
export function pageLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage
  } catch {
    return undefined
  }
}

/** `sessionStorage`, on the same terms. */
export function pageSessionStorage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage
  } catch {
    return undefined
  }
}
