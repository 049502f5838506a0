/** The part of autocannon's API the server bench uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      /** One target, or several: connections go to them round robin. */
      url: string | string[]
      connections?: number
      duration?: number
      method?: string
      headers?: Record<string, string>
      body?: string
      /** Per-request changes: `setupRequest` returns the request to send (a fresh body each time). */
      requests?: { setupRequest: (request: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) => { body?: string } }[]
    }
    interface Result {
      requests: { average: number; total: number }
      latency: { p50: number; p99: number }
      non2xx: number
      errors: number
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>
  export default autocannon
}
