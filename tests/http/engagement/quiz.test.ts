/**
 * The quiz over HTTP (issue 15 item 2, spec §3 quizInfo, §4 statuses, §7 calls): statuses follow
 * the injected clock, an answer is taken (successful) and pending until the quiz's event is
 * settled, right or wrong only then (issue 31), one answer per quiz, the
 * personal-data denial names the page that asks for the data, and the right answer is never served.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startMoneyServer, type MoneyServer } from '../payments/support'

let server: MoneyServer
beforeAll(async () => {
  server = await startMoneyServer() // clock: 2026-01-15T12:00Z
})
afterAll(async () => server?.dispose())
beforeEach(() => at('2026-01-15T12:00:00Z'))

const at = (iso: string) => {
  server.clock.now = Date.parse(iso)
}
const active = async (hash: string) => (await server.call('GET', 'bonus/quiz/punter/active', { hash })).json.payload as any[]
const tickets = async (hash: string) => (await server.call('GET', 'bonus/quiz/punter/quiz-account', { hash })).json.payload.availableTickets as number
const answer = (hash: string, quizId: string, answerId: string) => server.call('POST', 'bonus/quiz/punter/answer', { hash, body: { quizId, answerId } })

describe('quiz statuses by the clock', () => {
  it('a PUBLISHED quiz before its end takes answers; past its end it counts as IN_PLAY and takes none', async () => {
    at('2026-01-15T12:00:00Z')
    const hash = await server.login('opened@demo.parlay.test')
    const quizzes = await active(hash)
    const derby = quizzes.find((q) => q.id === 'derby-winner')
    expect(derby).toMatchObject({ status: 'PUBLISHED', canAnswer: true, eventId: 'e493817042', treeId: 493817042, questionText: 'Who wins the city derby?' })
    expect(quizzes.find((q) => q.id === 'cup-final-goals')).toMatchObject({ status: 'IN_PLAY', canAnswer: false })
    expect(JSON.stringify(quizzes)).not.toContain('correctAnswer')

    at('2027-07-01T00:00:00Z') // the derby's end has passed (a new session: the old one has expired by then)
    const later = await server.login('opened@demo.parlay.test')
    expect((await active(later)).find((q) => q.id === 'derby-winner')).toMatchObject({ status: 'IN_PLAY', canAnswer: false })
    const late = await answer(later, 'derby-winner', 'home')
    expect(late.status).toBe(409)
    expect(late.json).toMatchObject({ status: 'ERROR', errorCode: 'QUIZ_NOT_OPEN', payload: { status: 'IN_PLAY' } })
  })

  it('the award with the highest prize is the top award, in the award currency', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const derby = (await active(hash)).find((q) => q.id === 'derby-winner')
    expect(derby.topAward).toEqual({ id: 'first', prize: 500, awardCurrencyCode: 'EUR' })
  })
})

describe('answering', () => {
  it('an answer before the match is taken and pending, whether right or not; it uses the ticket, and a second answer is refused', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    expect(await tickets(hash)).toBe(1)
    const right = await answer(hash, 'derby-winner', 'home')
    expect(right.status).toBe(200)
    expect(right.json.payload).toEqual({ quizId: 'derby-winner', answerId: 'home', successful: true, result: 'pending' })
    expect(await tickets(hash)).toBe(0)
    expect((await active(hash)).find((q) => q.id === 'derby-winner')).toMatchObject({ canAnswer: false, answered: { answerId: 'home', result: 'pending' } })
    const again = await answer(hash, 'derby-winner', 'away')
    expect(again.status).toBe(409)
    expect(again.json.errorCode).toBe('QUIZ_ALREADY_ANSWERED')
  })

  it('a wrong answer before the match is taken and pending too: never judged wrong before the event is settled', async () => {
    const hash = await server.login('zero@demo.parlay.test')
    const wrong = await answer(hash, 'derby-winner', 'draw')
    expect(wrong.status).toBe(200)
    expect(wrong.json.payload).toMatchObject({ successful: true, result: 'pending' })
    expect((await active(hash)).find((q) => q.id === 'derby-winner').answered).toEqual({ answerId: 'draw', result: 'pending' })
    // the derby's end has passed: IN_PLAY, still pending until an operator settles it
    at('2027-07-01T00:00:00Z')
    const later = await server.login('zero@demo.parlay.test')
    expect((await active(later)).find((q) => q.id === 'derby-winner')).toMatchObject({ status: 'IN_PLAY', answered: { answerId: 'draw', result: 'pending' } })
  })

  it('a punter without personal data is denied with the code and the page that asks for the data', async () => {
    const hash = await server.login('legal@demo.parlay.test')
    await server.deps.data.db.updateTable('punters').set({ first_name: '' }).where('email', '=', 'legal@demo.parlay.test').execute()
    const denied = await answer(hash, 'derby-winner', 'home')
    expect(denied.status).toBe(403)
    expect(denied.json).toMatchObject({ status: 'ERROR', errorCode: 'QUIZ_PERSONAL_DATA_REQUIRED', payload: { path: '/account/id-confirmation' } })
    expect(await tickets(hash)).toBe(1) // nothing used
  })

  it('bad input answers a clear 4xx: unknown quiz, unknown answer, extra fields, no session', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    expect((await answer(hash, 'no-such-quiz', 'home')).json.errorCode).toBe('QUIZ_NOT_FOUND')
    const unknown = await answer(hash, 'derby-winner', 'maybe')
    expect([unknown.status, unknown.json.errorCode, unknown.json.payload.field]).toEqual([400, 'ValidationError', 'answerId'])
    const extra = await server.call('POST', 'bonus/quiz/punter/answer', { hash, body: { quizId: 'derby-winner', answerId: 'home', bonus: 1 } })
    expect([extra.status, extra.json.errorCode]).toEqual([400, 'ValidationError'])
    expect((await server.call('POST', 'bonus/quiz/punter/answer', { hash, raw: '{"quizId":', headers: { 'content-type': 'application/json' } })).status).toBe(400)
    expect((await server.call('GET', 'bonus/quiz/punter/active')).status).toBe(401)
  })
})

describe('events/get-tree-ids', () => {
  it('answers each event with its tree id; a malformed id is a 400', async () => {
    const ok = await server.call('GET', 'events/get-tree-ids?event-ids=e493817042,e12')
    expect(ok.json.payload).toEqual([
      { eventId: 'e493817042', treeId: 493817042 },
      { eventId: 'e12', treeId: 12 },
    ])
    const bad = await server.call('GET', 'events/get-tree-ids?event-ids=x1')
    expect([bad.status, bad.json.errorCode]).toEqual([400, 'ValidationError'])
  })
})
