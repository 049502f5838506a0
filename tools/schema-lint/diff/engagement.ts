/**
 * Diff wording for the operators' engagement documents (issue 15 item 5): quizzes and loyalty
 * campaigns. A compliance reviewer reads "award first: prize changed from 50 to 500 EUR" or "quiz
 * end moved earlier", not a JSON path. Answers undefined for any change it has no words for; the
 * generic wording of differ.ts then applies.
 */
import type { Direction, ImpactClass } from './classify'

export interface EngagementChange {
  op: string
  path: { key: string }[]
  before?: unknown
  after?: unknown
}

export interface EngagementWording {
  rule: string
  message: string
  direction: Direction
  impact?: ImpactClass
}

const NOUN: Record<string, string> = { quiz: 'quiz', 'loyalty-campaign': 'campaign' }

const str = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))

/** "moved earlier" / "moved later" between two instants. */
function moved(before: unknown, after: unknown): string {
  const a = Date.parse(String(before))
  const b = Date.parse(String(after))
  const way = b < a ? 'earlier' : 'later'
  return `moved ${way} (${str(before)} → ${str(after)})`
}

function currencyOf(source: Record<string, unknown>, awardId: string): string {
  const awards = Array.isArray(source.awards) ? (source.awards as { id?: unknown; awardCurrencyCode?: unknown }[]) : []
  const code = awards.find((a) => a.id === awardId)?.awardCurrencyCode
  return typeof code === 'string' ? ` ${code}` : ''
}

export function engagementWording(change: EngagementChange, kind: string, source: Record<string, unknown>): EngagementWording | undefined {
  const noun = NOUN[kind]
  if (!noun || change.op !== 'changed') return undefined
  const keys = change.path.map((s) => s.key)
  const [first, id, leaf] = keys
  const { before, after } = change
  if (keys.length === 1 && (first === 'startTime' || first === 'endTime')) {
    const which = first === 'startTime' ? 'start' : 'end'
    return { rule: `schedule.${which}.changed`, message: `${noun} ${which} ${moved(before, after)}`, direction: 'neutral', impact: 'money-bonus' }
  }
  if (kind === 'quiz' && keys.length === 1 && first === 'status') return { rule: 'status.changed', message: `quiz status ${str(before)} → ${str(after)}`, direction: 'neutral', impact: 'money-bonus' }
  if (kind === 'quiz' && keys.length === 1 && first === 'correctAnswer')
    return { rule: 'answer.right.changed', message: `right answer changed from ${str(before)} to ${str(after)}`, direction: 'neutral', impact: 'money-bonus' }
  if (kind === 'quiz' && first === 'awards' && keys.length === 3 && leaf === 'prize') {
    const direction: Direction = Number(after) > Number(before) ? 'loosened' : 'tightened'
    return { rule: 'award.prize.changed', message: `award ${id}: prize changed from ${str(before)} to ${str(after)}${currencyOf(source, id!)}`, direction, impact: 'money-bonus' }
  }
  if (kind === 'quiz' && first === 'awards' && keys.length === 3 && leaf === 'awardCurrencyCode')
    return { rule: 'award.currency.changed', message: `award ${id}: currency changed from ${str(before)} to ${str(after)}`, direction: 'neutral', impact: 'money-bonus' }
  if (kind === 'loyalty-campaign' && first === 'prizes' && keys.length === 3 && leaf === 'points') {
    const direction: Direction = Number(after) < Number(before) ? 'loosened' : 'tightened'
    return { rule: 'prize.points.changed', message: `prize ${id} now costs ${str(after)} points instead of ${str(before)}`, direction, impact: 'money-bonus' }
  }
  return undefined
}
