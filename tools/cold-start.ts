/**
 * What one test file pays before its first test (ADR 0089): the CPU seconds of importing the test
 * server's modules, of a first (cold) server start and of a second (warm) one in the same process.
 * `npx tsx tools/cold-start.ts` (PARLAY_AJV_CACHE=1: with the test runner's validator cache). CPU
 * seconds (process.cpuUsage) rather than wall time: the machine is shared.
 */
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

async function main(): Promise<void> {
  const started = process.cpuUsage()
  const { startTestServer } = await import('../tests/support/server')
  const imported = cpuSeconds(started)
  const cold = await startTestServer()
  const coldStart = cpuSeconds(started) - imported
  await cold.dispose()
  const beforeWarm = cpuSeconds(started)
  const warm = await startTestServer()
  const warmStart = cpuSeconds(started) - beforeWarm
  await warm.dispose()
  console.log(`import ${imported.toFixed(2)} s · cold start ${coldStart.toFixed(2)} s · warm start ${warmStart.toFixed(2)} s (CPU)`)
}

void main()
