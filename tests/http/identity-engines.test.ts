/**
 * MitID states and links (server/identity/mitid.ts) on the query layer (issue 16) keep their rules
 * on both engines: SQLite (one server) and PostgreSQL, where two instances share one database and
 * the steps of one login move between
 * them, as behind a load balancer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cprDigest } from '../../server/identity/mitid'
import { createPunter } from '../../server/punters/repository'
import { engines, type Pair } from '../support/postgres'
import { startTestServer, type TestServer } from '../support/server'
import { freshIp, GATE } from './signup/helpers'

const { each: ENGINES, pair } = engines()

const NOW = Date.UTC(2025, 5, 15, 12)
const CPR = '030303-3333'

async function call(server: TestServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { 'x-parlay-target': 'denmark', 'x-forwarded-for': freshIp() }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(server.url + GATE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, json: await res.json() }
}

/** A MitID authorisation started on `starts` and approved on the simulator page of `approves`: its code and state. */
async function authorised(starts: TestServer, approves: TestServer, subject: string, cpr?: string): Promise<{ authorizationCode: string; state: string }> {
  const { state } = (await call(starts, 'GET', `/account/mitId/params?askCpr=${cpr !== undefined}`)).json.payload
  const form = new URLSearchParams({ state, subject, ...(cpr ? { cpr } : {}) })
  const approve = await fetch(`${approves.url}/dev/mitid/authorize`, { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  const location = new URL(approve.headers.get('location')!, approves.url)
  const authorizationCode = location.searchParams.get('mitIdCode')
  expect(authorizationCode, location.search).toBeTruthy()
  return { authorizationCode: authorizationCode!, state }
}

describe.each(ENGINES)('MitID logins on %s (two instances on PostgreSQL)', (engine, runs) => {
  let a: TestServer
  let b: TestServer
  let instances: Pair<TestServer> | undefined
  beforeAll(async () => {
    if (!runs) return
    instances = await pair(engine, (on) => startTestServer({ development: true, now: () => NOW, ...on }))
    ;({ a, b } = instances)
    // the Danish punter with this CPR: one row both instances read (the punters store is on the
    // query layer: one table on PostgreSQL; on SQLite a and b are one server)
    const made = await createPunter(a.deps.data, { jurisdiction: 'denmark', currency: 'DKK', email: 'mitid-engines@test.parlay.test', password: 'mitid engines secret', profile: { cprDigest: cprDigest(CPR) } as never }, NOW)
    if (!made.ok) throw new Error(made.code)
  }, 120_000)
  afterAll(async () => instances?.dispose())

  it.runIf(runs)('an authorisation code logs in once: two logins with it at once (one per instance) give one OK and one GENERAL', async () => {
    expect(a.deps.data.engine).toBe(engine)
    const code = await authorised(a, b, 'mitid-once', CPR)
    const logins = await Promise.all([a, b].map((server) => call(server, 'POST', '/auth/mitId/login', code)))
    expect(logins.map((l) => l.json.payload?.status ?? l.json.errorCode).sort()).toEqual(['GENERAL', 'OK'])
  })

  it.runIf(runs)('a MitID subject linked at its first login (with CPR) logs in without a CPR afterwards, on either instance', async () => {
    expect((await call(b, 'POST', '/auth/mitId/login', await authorised(b, a, 'mitid-linked'))).json.errorCode).toBe('NEED_CPR_REQUEST')
    expect((await call(a, 'POST', '/auth/mitId/login', await authorised(a, a, 'mitid-linked', CPR))).json.payload).toMatchObject({ status: 'OK', loginByAuthType: 'mitId' })
    expect((await call(b, 'POST', '/auth/mitId/login', await authorised(b, a, 'mitid-linked'))).json.payload).toMatchObject({ status: 'OK', loginByAuthType: 'mitId' })
  })
})
