// Types for the test-only odds oracle (oddslib ships none).
declare module 'oddslib' {
  type OddslibFormat = 'decimal' | 'moneyline' | 'hongKong' | 'fractional' | 'malay' | 'indonesian' | 'impliedProbability'
  interface OddslibOdds {
    to(format: OddslibFormat, options?: { precision?: number | null; percentage?: boolean }): number | string
  }
  export function from(format: OddslibFormat, value: number | string): OddslibOdds
}
