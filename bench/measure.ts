/** Shared by the benchmarks: calls per second of `run`, measured for at least `minMs`. */
export function opsPerSecond(run: () => void, minMs = 400): number {
  let n = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < minMs) {
    for (let i = 0; i < 1000; i++) run()
    n += 1000
    elapsed = performance.now() - start
  }
  return (n / elapsed) * 1000
}
