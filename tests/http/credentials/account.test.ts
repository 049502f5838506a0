import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECRET_QUESTION_TYPES } from '../../../server/credentials/secret-question'
import { issueOpenProfileToken } from '../../../server/credentials'
import { linkToken, startCredentialsServer, type CredentialsServer } from './support'

let server: CredentialsServer
beforeAll(async () => {
  server = await startCredentialsServer()
})
afterAll(async () => server?.dispose())

const change = (session: string, currentPassword: string, password: string) => server.call('POST', 'account/password/change', { session, body: { currentPassword, password } })
const heartbeatStatus = async (session: string) => (await server.call('GET', 'heartbeat', { session })).status

describe('change password (CHANGING)', () => {
  it('needs the current password; a wrong one is INCORRECT_PASSWORD on its field', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    const res = await change(session, 'not my password', 'another good secret')
    expect(res.json).toEqual({ status: 'ERROR', errorCode: 'INCORRECT_PASSWORD', payload: [{ field: 'currentPassword', code: 'INCORRECT_PASSWORD' }] })
  })

  it('ends every other session of the punter; the session that changed it stays', async () => {
    const punter = await server.punter()
    const here = await server.loginHash(punter.email, punter.password)
    const phone = await server.loginHash(punter.email, punter.password)
    const res = await change(here, punter.password, 'changed from here 1')
    expect(res.json.payload).toEqual({ status: 'OK', endedSessions: 1 })
    expect(await heartbeatStatus(here)).toBe(200)
    expect(await heartbeatStatus(phone)).toBe(401)
  })

  it('the device logged out by the change cannot log the punter out everywhere with its dead refresh token', async () => {
    const punter = await server.punter()
    const here = await server.loginHash(punter.email, punter.password)
    const phoneLogin = await server.call('POST', 'auth/v2/login', { body: { login: punter.email, password: punter.password } })
    expect((await change(here, punter.password, 'changed from here 2')).status).toBe(200)
    const res = await fetch(`${server.url}/mobile-gate/api/v1/auth/token/logout`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: phoneLogin.json.payload.refreshToken })
    expect(res.status).toBe(200)
    expect(await heartbeatStatus(here)).toBe(200)
  })

  it('the password history refuses the last 5 passwords (jurisdiction credentials.passwordHistory), the current one included', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    expect((await change(session, punter.password, punter.password)).json.errorCode).toBe('PASSWORD_USED_BEFORE')
    const passwords = [punter.password, 'history number 1', 'history number 2', 'history number 3', 'history number 4', 'history number 5']
    for (let i = 1; i < passwords.length; i++) expect((await change(session, passwords[i - 1], passwords[i])).status).toBe(200)
    // now the last five are 1..5: 1 is refused, the original (6 back) is allowed again
    expect((await change(session, passwords[5], passwords[1])).json).toMatchObject({ errorCode: 'PASSWORD_USED_BEFORE', payload: [{ field: 'password', code: 'PASSWORD_USED_BEFORE' }] })
    expect((await change(session, passwords[5], passwords[0])).status).toBe(200)
  })

  it('the sign-up rules hold: too short, a breached password, personal data', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    expect((await change(session, punter.password, 'short')).json.payload).toEqual([{ field: 'password', code: 'minLength', limit: 8 }])
    expect((await change(session, punter.password, 'password1')).json.payload).toEqual([{ field: 'password', code: 'breachedPassword' }])
    expect((await change(session, punter.password, 'prieto-forever')).json.errorCode).toBe('PASSWORD_CONTAINS_PERSONAL_DATA')
    expect((await change(session, punter.password, 'born 12.05.1990 x')).json.errorCode).toBe('PASSWORD_CONTAINS_PERSONAL_DATA')
  })

  it('wrong current passwords are limited: after five within an hour even the right one is TEMPORARY_BLOCKED', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    for (let i = 0; i < 5; i++) expect((await change(session, `wrong guess ${i}`, 'whatever secret')).json.errorCode).toBe('INCORRECT_PASSWORD')
    expect((await change(session, punter.password, 'whatever secret')).status).toBe(429)
  })

  it('no session is a 401 in the envelope', async () => {
    expect((await server.call('POST', 'account/password/change', { body: { currentPassword: 'a', password: 'b' } })).json).toEqual({ status: 'ERROR', errorCode: 'UNAUTHORIZED' })
  })
})

describe('create password (CREATING)', () => {
  it('only for an account opened without one: it sets it, the mode turns to CHANGING, and a second create is PASSWORD_ALREADY_SET', async () => {
    const punter = await server.punter({ profile: { needPassword: true } as never })
    const session = await server.loginHash(punter.email, punter.password)
    expect((await server.call('GET', 'account/credentials', { session })).json.payload.passwordMode).toBe('CREATING')
    expect((await server.call('POST', 'account/password/create', { session, body: { password: 'my first real one' } })).status).toBe(200)
    expect((await server.call('GET', 'account/credentials', { session })).json.payload).toMatchObject({ passwordMode: 'CHANGING', passwordHistory: 5 })
    expect((await server.call('POST', 'account/password/create', { session, body: { password: 'my second real one' } })).json.errorCode).toBe('PASSWORD_ALREADY_SET')
  })
})

describe('secret question (spec §3: 14 types; §5: the answer must not contain the birthday)', () => {
  const setQuestion = (session: string, body: Record<string, unknown>) => server.call('POST', 'account/secret-question', { session, body })

  it('takes each of the 14 types and nothing else', async () => {
    expect(SECRET_QUESTION_TYPES).toHaveLength(14)
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    expect((await setQuestion(session, { questionType: 'FavouriteFood', answer: 'pizza', password: punter.password })).json.payload).toMatchObject({ field: 'questionType' })
    expect((await setQuestion(session, { questionType: 'WhereBorn', answer: 'Willemstad', password: punter.password })).json.payload).toMatchObject({ questionType: 'WhereBorn' })
  })

  it('refuses an answer that contains the birthday, in any spelling', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    for (const answer of ['1990-05-12', 'born 12/05/90', '12.05.1990 rex'])
      expect((await setQuestion(session, { questionType: 'MemorableWord', answer, password: punter.password })).json).toEqual({
        status: 'ERROR',
        errorCode: 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY',
        payload: [{ field: 'answer', code: 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY' }],
      })
  })

  it('a recovery must answer it first: reset without it is SECRET_QUESTION_CHECK_NOT_PASSED, a wrong answer SQ_ANSWER_NOT_MATCH, the right one (any case) lets the reset through', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    expect((await setQuestion(session, { questionType: 'FirstPetName', answer: 'Captain Whiskers', password: punter.password })).status).toBe(200)
    await server.call('POST', 'account/password/recover', { body: { login: punter.email } })
    const token = linkToken((await server.lastMessage(punter.email)).body)
    expect((await server.call('POST', 'account/password/recover/token', { body: { token } })).json.payload).toEqual({ secretQuestion: 'FirstPetName', secretQuestionPassed: false })
    expect((await server.call('POST', 'account/password/reset', { body: { token, password: 'brand new secret' } })).json.errorCode).toBe('SECRET_QUESTION_CHECK_NOT_PASSED')
    expect((await server.call('POST', 'account/secret-question/answer-validation', { body: { token, answer: 'Rex' } })).json.errorCode).toBe('SQ_ANSWER_NOT_MATCH')
    expect((await server.call('POST', 'account/secret-question/answer-validation', { body: { token, answer: '  captain   WHISKERS ' } })).status).toBe(200)
    expect((await server.call('POST', 'account/password/reset', { body: { token, password: 'brand new secret' } })).status).toBe(200)
  })

  it('five wrong answers block answering (SQ_ATTEMPTS_LIMIT_EXCEEDED, then SQ_VERIFICATION_BLOCKED) for an hour', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    await setQuestion(session, { questionType: 'SchoolName', answer: 'Peter Stuyvesant', password: punter.password })
    const answer = (text: string) => server.call('POST', 'account/secret-question/answer-validation', { session, body: { answer: text } })
    const codes = []
    for (let i = 0; i < 5; i++) codes.push((await answer(`wrong ${i}`)).json.errorCode)
    expect(codes).toEqual(['SQ_ANSWER_NOT_MATCH', 'SQ_ANSWER_NOT_MATCH', 'SQ_ANSWER_NOT_MATCH', 'SQ_ANSWER_NOT_MATCH', 'SQ_ATTEMPTS_LIMIT_EXCEEDED'])
    expect((await answer('Peter Stuyvesant')).json.errorCode).toBe('SQ_VERIFICATION_BLOCKED')
    server.clock.now += 3_600_000
    try {
      const later = await server.loginHash(punter.email, punter.password)
      expect((await server.call('POST', 'account/secret-question/answer-validation', { session: later, body: { answer: 'Peter Stuyvesant' } })).status).toBe(200)
    } finally {
      server.clock.now -= 3_600_000
    }
  })

  it('without a question set the check is SQ_NOT_FOUND; setting one ends the other sessions', async () => {
    const punter = await server.punter()
    const here = await server.loginHash(punter.email, punter.password)
    const other = await server.loginHash(punter.email, punter.password)
    expect((await server.call('POST', 'account/secret-question/answer-validation', { session: here, body: { answer: 'x' } })).json.errorCode).toBe('SQ_NOT_FOUND')
    expect((await setQuestion(here, { questionType: 'MotherName', answer: 'Maria', password: punter.password })).json.payload.endedSessions).toBe(1)
    expect(await heartbeatStatus(other)).toBe(401)
  })
})

describe('add and update e-mail (confirmation by link)', () => {
  it('update-email sends a link to the new address and a notice to the old; the e-mail changes only when the link is opened, once; other sessions end', async () => {
    const punter = await server.punter()
    const here = await server.loginHash(punter.email, punter.password)
    const other = await server.loginHash(punter.email, punter.password)
    const next = `moved-${punter.id}@test.parlay.test`
    expect((await server.call('POST', 'account/update-email', { session: here, body: { email: next, password: 'wrong password' } })).json.errorCode).toBe('INCORRECT_PASSWORD')
    const res = await server.call('POST', 'account/update-email', { session: here, body: { email: next, password: punter.password } })
    expect(res.json.payload).toMatchObject({ email: next })
    const link = await server.lastMessage(next)
    expect(link.body).toMatch(/\/account\/confirm-email\?token=/)
    expect((await server.lastMessage(punter.email)).subject).toMatch(/being changed/)
    expect((await server.call('GET', 'heartbeat', { session: here })).json.payload.user.account.email).toBe(punter.email)
    const token = linkToken(link.body)
    expect((await server.call('POST', 'account/email/confirm', { body: { token } })).json.payload).toEqual({ email: next })
    expect((await server.call('POST', 'account/email/confirm', { body: { token } })).json.errorCode).toBe('TOKEN_NOT_FOUND')
    expect((await server.call('GET', 'heartbeat', { session: here })).json.payload.user.account.email).toBe(next)
    expect(await heartbeatStatus(other)).toBe(401)
  })

  it('add-email is for an account without one; an address in use is DUPLICATE_EMAIL', async () => {
    const withEmail = await server.punter()
    const phoneOnly = await server.punter({ email: null })
    const session = await server.loginHash(phoneOnly.phone, phoneOnly.password)
    expect((await server.call('POST', 'account/add-email', { session, body: { email: withEmail.email } })).json.errorCode).toBe('DUPLICATE_EMAIL')
    expect((await server.call('POST', 'account/add-email', { session, body: { email: 'not an address' } })).json.payload).toEqual({ field: 'email', code: 'format' })
    const fresh = `added-${phoneOnly.id}@test.parlay.test`
    expect((await server.call('POST', 'account/add-email', { session, body: { email: fresh } })).status).toBe(200)
    await server.call('POST', 'account/email/confirm', { body: { token: linkToken((await server.lastMessage(fresh)).body) } })
    expect((await server.call('POST', 'account/add-email', { session, body: { email: `again-${fresh}` } })).json.errorCode).toBe('EMAIL_ALREADY_SET')
  })
})

describe('check-password/for-personal-data/join', () => {
  const check = (body: Record<string, unknown>) => server.call('POST', 'account/check-password/for-personal-data/join', { body })
  it('refuses a password that contains the typed name, nickname, e-mail name, phone or birthday; accepts one that does not', async () => {
    expect((await check({ password: 'isabella2024!', firstName: 'Isabella' })).json.errorCode).toBe('PASSWORD_CONTAINS_PERSONAL_DATA')
    expect((await check({ password: 'hello-lucky7', email: 'lucky7@example.com' })).json.errorCode).toBe('PASSWORD_CONTAINS_PERSONAL_DATA')
    expect((await check({ password: 'x5101001x-pass', phoneNumber: '+59995101001' })).json.errorCode).toBe('PASSWORD_CONTAINS_PERSONAL_DATA')
    expect((await check({ password: 'since 19900512', birthDay: '1990-05-12' })).json.errorCode).toBe('PASSWORD_CONTAINS_PERSONAL_DATA')
    expect((await check({ password: 'correct horse battery', firstName: 'Isabella', birthDay: '1990-05-12' })).json).toEqual({ status: 'OK', payload: { status: 'OK' } })
    expect((await check({ firstName: 'Isabella' })).json.payload).toEqual({ field: 'password', code: 'required' })
  })
})

describe('login by authentication token and open-profile', () => {
  it('auth/token/obtain gives a one-time token; login-by-authentication-token opens a new session once', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    const obtained = await server.call('GET', 'auth/token/obtain', { session })
    expect(obtained.headers.get('cache-control')).toBe('no-store')
    const token = obtained.json.payload.token
    const login = await server.call('POST', 'auth/v2/login-by-authentication-token', { body: { token } })
    expect(login.json.payload).toMatchObject({ status: 'OK', loginByAuthType: 'auto_login', isLoginByAuthToken: true })
    expect(login.json.payload.punterHash).not.toBe(session)
    expect(await heartbeatStatus(login.json.payload.punterHash)).toBe(200)
    expect((await server.call('POST', 'auth/v2/login-by-authentication-token', { body: { token } })).json.errorCode).toBe('TOKEN_NOT_FOUND')
    expect((await server.call('GET', 'auth/token/obtain')).status).toBe(401)
  })

  it('an authentication token lives 2 minutes', async () => {
    const punter = await server.punter()
    const session = await server.loginHash(punter.email, punter.password)
    const token = (await server.call('GET', 'auth/token/obtain', { session })).json.payload.token
    server.clock.now += 2 * 60_000
    try {
      expect((await server.call('POST', 'auth/v2/login-by-authentication-token', { body: { token } })).json.errorCode).toBe('TOKEN_NOT_FOUND')
    } finally {
      server.clock.now -= 2 * 60_000
    }
  })

  it('open-profile answers a login result when the self-exclusion is over, the exclusion while it runs, GENERAL_ERROR for a used token', async () => {
    const ended = new Date(server.clock.now - 86_400_000).toISOString()
    const running = new Date(server.clock.now + 86_400_000).toISOString()
    const over = await server.punter({ state: 'SELF_EXCLUDED', profile: { selfExclude: { endDate: ended, permanent: false, selfExcludedByRegulator: false, timeout: null } } })
    const still = await server.punter({ state: 'SELF_EXCLUDED', profile: { selfExclude: { endDate: running, permanent: false, selfExcludedByRegulator: false, timeout: null } } })
    const openToken = await issueOpenProfileToken(server.deps.data, over.id, server.clock.now)
    const opened = await server.call('POST', 'punter/open-profile', { body: { openToken } })
    expect(opened.json.payload.loginResult).toMatchObject({ status: 'OK' })
    expect(opened.headers.get('date')).toBe(new Date(server.clock.now).toUTCString())
    expect((await server.call('GET', 'heartbeat', { session: opened.json.payload.loginResult.punterHash })).json.payload.punterInfo.state).toBe('OPENED')
    expect((await server.call('POST', 'punter/open-profile', { body: { openToken } })).json).toEqual({ status: 'ERROR', errorCode: 'GENERAL_ERROR' })
    const refused = await server.call('POST', 'punter/open-profile', { body: { openToken: await issueOpenProfileToken(server.deps.data, still.id, server.clock.now) } })
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({ errorCode: 'CUSTOMER_SELFEXCLUDED', payload: { selfExcludeSettings: { endDate: running } } })
  })
})

describe('an ended self-exclusion is reopened only by the punter (open-profile from the refused login)', () => {
  it('the login of a punter whose exclusion has ended is refused with canOpen and an open token; open-profile with it logs in and reopens; the next login is a plain one', async () => {
    const ended = new Date(server.clock.now - 86_400_000).toISOString()
    const punter = await server.punter({ state: 'SELF_EXCLUDED', profile: { selfExclude: { endDate: ended, permanent: false, selfExcludedByRegulator: false, timeout: null } } })
    const refused = await server.call('POST', 'auth/v2/login', { body: { login: punter.email, password: punter.password } })
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({ errorCode: 'CUSTOMER_SELFEXCLUDED', payload: { selfExcludeSettings: { endDate: ended }, canOpen: true } })
    expect(server.logLines.join('\n')).not.toContain(refused.json.payload.openToken)
    const opened = await server.call('POST', 'punter/open-profile', { body: { openToken: refused.json.payload.openToken } })
    expect(opened.json.payload.loginResult).toMatchObject({ status: 'OK' })
    expect((await server.call('GET', 'heartbeat', { session: opened.json.payload.loginResult.punterHash })).json.payload.punterInfo.state).toBe('OPENED')
    expect((await server.call('POST', 'auth/v2/login', { body: { login: punter.email, password: punter.password } })).status).toBe(200)
  })

  it('while the exclusion runs the refused login carries no open token', async () => {
    const running = new Date(server.clock.now + 86_400_000).toISOString()
    const punter = await server.punter({ state: 'SELF_EXCLUDED', profile: { selfExclude: { endDate: running, permanent: false, selfExcludedByRegulator: false, timeout: null } } })
    const refused = await server.call('POST', 'auth/v2/login', { body: { login: punter.email, password: punter.password } })
    expect(refused.json.errorCode).toBe('CUSTOMER_SELFEXCLUDED')
    expect(refused.json.payload.openToken).toBeUndefined()
    expect(refused.json.payload.canOpen).toBeUndefined()
  })
})

describe('join form save and load (spec §7)', () => {
  it('keeps a form in progress under a key, without the password or codes; another site cannot load it', async () => {
    const saved = await server.call('POST', 'account/v2/joinform/save', { body: { form: { firstName: 'Ana', countryId: 5, password: 'never kept', verificationCode: '123456', secretAnswer: 'x', promoCode: 'WELCOME' } } })
    expect(saved.json.payload.savedFields.sort()).toEqual(['countryId', 'firstName', 'promoCode'])
    const key = saved.json.payload.key
    expect((await server.call('POST', 'account/v2/joinform/load', { body: { key } })).json.payload.form).toEqual({ firstName: 'Ana', countryId: 5, promoCode: 'WELCOME' })
    const again = await server.call('POST', 'account/v2/joinform/save', { body: { key, form: { firstName: 'Ana María' } } })
    expect(again.json.payload.key).toBe(key)
    expect((await server.call('POST', 'account/v2/joinform/load', { body: { key } })).json.payload.form).toEqual({ firstName: 'Ana María' })
    expect((await server.call('POST', 'account/v2/joinform/load', { body: { key }, host: 'spain' })).status).toBe(404)
    expect((await server.call('POST', 'account/v2/joinform/load', { body: { key: 'made-up' } })).json.errorCode).toBe('TOKEN_NOT_FOUND')
  })

  it('refuses nested values, odd field names and oversize forms with ValidationError', async () => {
    for (const form of [{ address: { street: 'x' } }, { 'bad name': 'x' }, Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`f${i}`, 'x']))])
      expect((await server.call('POST', 'account/v2/joinform/save', { body: { form } })).json.errorCode).toBe('ValidationError')
  })

  it('a saved form expires after 7 days', async () => {
    const key = (await server.call('POST', 'account/v2/joinform/save', { body: { form: { firstName: 'Later' } } })).json.payload.key
    server.clock.now += 7 * 86_400_000
    try {
      expect((await server.call('POST', 'account/v2/joinform/load', { body: { key } })).status).toBe(404)
    } finally {
      server.clock.now -= 7 * 86_400_000
    }
  })
})
