/**
 * Where the process is in its life: starting (documents and database opening), serving, or
 * draining after SIGTERM. Readiness answers 503 outside "serving", so a load balancer stops sending
 * new requests before the instance goes away and does not send any before it can answer them.
 */
export type Phase = 'starting' | 'serving' | 'draining'

export interface Lifecycle {
  phase(): Phase
  serving(): void
  draining(): void
}

export function createLifecycle(): Lifecycle {
  let phase: Phase = 'starting'
  return {
    phase: () => phase,
    serving: () => {
      if (phase === 'starting') phase = 'serving'
    },
    draining: () => {
      phase = 'draining'
    },
  }
}
