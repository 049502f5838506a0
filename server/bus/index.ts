/**
 * The bus of a running server: Redis when `REDIS_URL` is set, this process otherwise (see bus.ts).
 * Modules reach it with `busOf(deps)`; a deps object built without one (unit tests) gets a
 * process bus of its own, on its injected clock.
 */
import type { ServerDeps } from '../deps'
import type { Logger } from '../log'
import { createProcessBus, type Bus } from './bus'
import { createRedisBus } from './redis-bus'

export { BusUnavailableError, type Bus } from './bus'

export async function openBus(options: { redisUrl?: string; log: Logger; now: () => number }): Promise<Bus> {
  return options.redisUrl ? createRedisBus(options.redisUrl, options.log) : createProcessBus(options.now)
}

const fallback = new WeakMap<object, Bus>()

export function busOf(deps: Pick<ServerDeps, 'bus' | 'now'>): Bus {
  if (deps.bus) return deps.bus
  let bus = fallback.get(deps)
  if (!bus) fallback.set(deps, (bus = createProcessBus(deps.now)))
  return bus
}
