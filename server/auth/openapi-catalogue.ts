/**
 * Notes for the OpenAPI document beyond the accounts calls (./openapi-auth.ts): one readable
 * summary per route, the finer tag (dictionary, identity, development) and the answers that are
 * not the envelope. Paths, methods, schemas and security come from the router itself; a note for
 * a route that is not served is never shown, and tests/http/openapi.test.ts fails on stale notes.
 */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const say = (summary: string, extra: Operation = {}): Operation => ({ summary, ...extra })
const tagged = (tag: string, items: Record<string, PathItem>) =>
  Object.fromEntries(Object.entries(items).map(([path, item]) => [path, Object.fromEntries(Object.entries(item).map(([method, op]) => [method, { tags: [tag], ...op }]))]))

const html = (description: string) => ({ responses: { 200: openapi.raw(description, 'text/html') } })
const rawJson = (description: string) => ({ responses: { 200: openapi.raw(description, 'application/json') } })
const SERVICE_UNAVAILABLE = { 503: openapi.error('No provider configured and simulators off', ['SERVICE_UNAVAILABLE']) }

const metaNotes: Record<string, PathItem> = {
  '/ping.json': { get: say('Liveness: the web version and the server clock') },
  '/api/openapi.json': { get: say('This document: every route the server serves', rawJson('OpenAPI 3.1 document')) },
}

const siteNotes: Record<string, PathItem> = {
  '/api/site': { get: say('Site bootstrap for the request host: site, remote config, route manifest, documents version (ETag, 304)') },
  '/api/site/version': { get: say('The documents version hash of the site; clients poll it to pick up published changes') },
  '/api/remote-config': { get: say('Remote app config of the site (ETag, 304)') },
  '/api/documents/{kind}/{id}': { get: say('A document resolved for site, locale and platform (ETag, 304); ?preview=token shows an admin draft', rawJson('The served document')) },
  '/api/i18n/{locale}': { get: say('Merged translations of one locale of the site (ETag, 304)', rawJson('kind: translations document')) },
}

const experimentsNotes: Record<string, PathItem> = {
  '/experiments/api/config.json': { get: say('Experiment config for the token in the header', rawJson('Public experiments config')) },
  '/experiments/api/geo': { get: say('Visitor geo from the edge headers', rawJson('{code, country, state?, city?}')) },
  '/experiments/api/pages.json': { get: say('Web-builder pages for an experiment group (headers exp and group)', rawJson('{pages: [...]}')) },
}

const validatorsNotes: Record<string, PathItem> = {
  '/api/flows/{id}/validator': { get: say('Where the precompiled validator module of a flow is, for this site', rawJson('{url, flow, hash}')) },
  '/api/validators/{file}': { get: say('A precompiled validator module (immutable, hashed name)', { responses: { 200: openapi.raw('ES module', 'text/javascript') } }) },
  '/api/demo/contact': { post: say('Contact form: validated by the demo-contact flow (as in the browser) and a strict schema, throttled (INGEST.CONTACT), stored; answers the message\'s reference') },
  '/api/content/games': { get: say('Demo casino games of a lobby section (?section=)') },
  '/api/content/events': { get: say('Demo sports events of a lobby section (?section=)') },
  '/api/content/statistics': { get: say('League tables from the finished matches of the feed (?section=sport|esports&locale=): played, won, drawn, lost, scored, conceded, points') },
  '/api/content/images/{file}': { get: say('A generated demo tile image', { responses: { 200: openapi.raw('SVG image', 'image/svg+xml') } }) },
}

const dictionaryNotes = tagged('dictionary', {
    [m('dictionary/all-platform-countries')]: { get: say('Every country of the platform, in the request language (cached 15 min)') },
    [m('dictionary/countries')]: { get: say('Countries, in the request language (cached 15 min)') },
    [m('dictionary/currencies')]: { get: say('Currencies') },
    [m('dictionary/user-location')]: { get: say("The visitor's likely country: Accept-Language region, else the site's default") },
    [m('dictionary/settings')]: { get: say("The site's sign-up, nickname and country-check settings") },
    [m('dictionary/site-info/{id}')]: { get: say('Name, currency, locales and minimum age of a site') },
    [m('account/signup/phone/config')]: { get: say('Phone input table: dial codes and lengths by country, and the default country') },
    [m('dictionary/italy/provinces')]: { get: say('Italian provinces') },
    [m('dictionary/italy/provinces/{id}/communes')]: { get: say('Communes of an Italian province') },
    [m('dictionary/address-search/{id}')]: { post: say('Address search within a country') },
    [m('dictionary/odds-types')]: { get: say('Odds types a punter can choose (settings oddsType): decimal, fractions, american, hongkong, indonesian, malaysian') },
    [m('dictionary/time-zones')]: { get: say('Time zones (id, IANA name, offset in minutes east of UTC now) for settings timeZoneId') },
    [m('dictionary/available-timeouts')]: { get: say('Standby timeouts in ms (id) and minutes for settings standbyTimeoutMillis; 0 is never') },
    [m('dictionary/betting-modes')]: { get: say('Betting modes (settings betPlacingMode) and what each does with a changed price (autoConfirm)') },
    [m('dictionary/locales')]: { get: say("The site's locales: code, full (the language's own name), isDefault") },
    [m('dictionary/titles')]: { get: say("The site's forms of address (jurisdiction dictionary.titles), each {code, name} in the request language; behind a session, the punter's own site's") },
    [m('dictionary/genders')]: { get: say("The site's genders (jurisdiction dictionary.genders), each {code, name} in the request language; behind a session, the punter's own site's") },
    [m('dictionary/nationalities')]: { get: say("Nationalities: every platform country {code, name} in the request language, the site's own country first") },
    [m('dictionary/tax-regions')]: { get: say("Tax regions of the site's country (jurisdiction dictionary.taxRegions; empty where the country has one), each {code, name}") },
    [m('dictionary/document-types')]: { get: say("Identity documents the site accepts (jurisdiction dictionary.documentTypes), each {code, name} in the request language") },
    [m('dictionary/secret-questions')]: { get: say("Security questions the site offers (jurisdiction dictionary.secretQuestions), each {code, name} in the request language") },
    [m('products/all')]: { get: say("The site's active products (remote config ACTIVE_PRODUCTS with APP_PRODUCTS_CONFIG): name, label in the request language, route, isNew") },
  })

const flowBody = (summary: string) =>
  say(summary, {
    description: "The body is the sign-up form of the site's flow document (GET /api/flows/{id}/validator has the same schemas precompiled) plus the meta fields refererId, registrationToken, verificationToken, verificationCode, captcha, and channelType (sms, the default, or tg_gateway where the site's jurisdiction document allows Telegram codes).",
    requestBody: openapi.json({ type: 'object' }),
  })

const signupNotes = tagged('signup', {
    [m('account/v2/signup/phone/begin')]: { post: flowBody('Phone sign-up, step one: sends the SMS code') },
    [m('account/v3/signup/phone/begin')]: { post: flowBody('Phone sign-up, step one (v3): sends the SMS code') },
    [m('account/v2/signup/phone/complete')]: { post: say('Phone sign-up, step two: the SMS code; creates the punter and logs in') },
    [m('account/v3/signup/phone/complete')]: { post: say('Phone sign-up, step two (v3): the SMS code; creates the punter and logs in') },
    [m('account/signup/phone/resend-notification-sms')]: { post: say('Send the SMS code again (cooldown: 429 with the next allowed time)') },
    [m('account/v2/belarus/signup/begin')]: { post: flowBody('Belarus sign-up, step one: sends the SMS code') },
    [m('account/belarus/signup/complete')]: { post: say('Belarus sign-up, step two: the SMS code; then the document upload') },
    [m('account/v2/ru/signup/begin')]: { post: flowBody('Russia sign-up, step one: registration and verification tokens, SMS code') },
    [m('account/ru/signup/confirmation/phone-number')]: { post: say('Russia sign-up: the SMS code step alone') },
    [m('account/ru/signup/complete')]: { post: say('Russia sign-up, last step; then the identity page') },
    [m('account/ru/signup/repeat')]: { post: say('Russia sign-up: send the SMS code again') },
    [m('account/ru/signup/continue')]: { post: say('Russia sign-up: the state of a started registration') },
    [m('account/v2/signup/ru')]: { post: flowBody('Russia sign-up, step one (the same call as v2/ru/signup/begin): registration and verification tokens, SMS code') },
    [m('account/ru/signup/add-email')]: { post: say('Russia sign-up: the e-mail a started registration is created with ({registrationToken, email}); UNKNOWN_HASH for no open registration of this site') },
    [m('account/v2/sign-up')]: { post: flowBody("The site's own sign-up: its first variant (jurisdiction signup.variants) with that variant's rules; a phone variant sends the SMS code, an e-mail variant makes the punter") },
    [m('account/join/config')]: {
      get: say("The site's sign-up form configuration: variants (flow, channel, calls), methods, default country, minimum age, currency, captcha kind; behind a session, the punter's own site's"),
      post: say('The same as GET (an empty body)'),
    },
    [m('referer/store')]: { post: say("Remember who referred this visitor ({refererId}) until sign-up: an HttpOnly cookie for 30 days; the same answer whatever the id names (nothing is looked up)") },
    [m('account/v2/signup/email')]: { post: flowBody('E-mail sign-up: the punter waits for the confirmation link') },
    [m('account/v3/signup/email')]: { post: flowBody('E-mail sign-up (v3): the punter waits for the confirmation link') },
    [m('account/v2/italy/signup')]: { post: flowBody('Italy sign-up (e-mail, fiscal code)') },
    [m('account/spain/signup')]: { post: flowBody('Spain sign-up (e-mail, document number)') },
    [m('account/signup/send-confirmation-mail')]: { post: say('Send the confirmation e-mail again ({login})') },
    [m('auth/v2/login-by-registration-token')]: { post: say('Log in with a registration token ({token})') },
    [m('account/join/confirm-email')]: { post: say('Confirm the e-mail with the link token and log in ({token})') },
    [m('bonus/check-promo-code')]: { post: say('Check a promo code for a country ({promoCode, countryId}): INVALID_PROMO_CODE for an unknown code, PROMO_CODE_NOT_FOR_COUNTRY for a code of other countries') },
    [m('account/signup/check-step')]: { post: say("Check one step of the sign-up form as the final submit would ({variant, step, data}): the step's schema, the minimum age, the jurisdiction's document checks, the phone, the promo code; field errors as a ValidationError; nothing stored, duplicates left to the submit") },
  })

const identityNotes = tagged('identity', {
    [m('punter/cps/one/info')]: { get: say("The punter's identification state (Russia)") },
    [m('punter/cps/one/identify-punter/simplified')]: { post: say('Russia: simplified identification with passport data', { responses: SERVICE_UNAVAILABLE }) },
    [m('punter/cps/one/identify-punter/simplified/with-verification')]: { post: say('Russia: simplified identification with verification', { responses: SERVICE_UNAVAILABLE }) },
    [m('punter/cps/one/identify-punter/continue')]: { post: say('Russia: continue a started identification', { responses: SERVICE_UNAVAILABLE }) },
    [m('punter/cps/one/identify-punter/esia/full')]: { post: say('Russia: full identification through ESIA (answers the identification link)', { responses: SERVICE_UNAVAILABLE }) },
    [m('account/mitId/params')]: { get: say('Denmark: start a MitID authorisation (?askCpr=true asks for the CPR)', { responses: SERVICE_UNAVAILABLE }) },
    [m('auth/mitId/login')]: {
      post: say('Denmark: log in with a MitID authorisation code', {
        responses: { ...SERVICE_UNAVAILABLE, 400: openapi.error('Refused', ['NEED_CPR_REQUEST', 'PUNTER_NOT_LINKED_WITH_EXTERNAL_SYSTEM', 'GENERAL', 'ValidationError']) },
      }),
    },
    [m('punter/documents/upload')]: {
      post: say('Belarus: upload an identity document (JPEG, PNG or PDF, sniffed)', {
        requestBody: {
          required: true,
          content: { 'multipart/form-data': { schema: { type: 'object', required: ['document', 'documentType'], properties: { document: { type: 'string', contentMediaType: 'application/octet-stream' }, documentType: { type: 'string' } } } } },
        },
        responses: { 413: openapi.error('Too large', ['FILE_TOO_LARGE']), 415: openapi.error('Not a JPEG, PNG or PDF', ['UNSUPPORTED_FILE_TYPE']) },
      }),
    },
    '/dev/mitid/authorize': {
      get: say('MitID simulator: the page where a tester picks an identity (simulators on)', html('HTML form')),
      post: say('MitID simulator: approve; redirects to /join/mitid with a code (simulators on)', {
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { state: { type: 'string' }, subject: { type: 'string' }, cpr: { type: 'string' } } } } } },
        responses: { 303: { description: 'Back to /join/mitid with mitIdCode and mitIdState, or mitIdError' } },
      }),
    },
  })

const developmentNotes = tagged('development', {
    '/dev/outbox': { get: say('Every SMS and e-mail the server sent, newest first (development only)', html('HTML table')) },
    '/api/dev/outbox': { get: say('Messages sent to one recipient, for tests (?to=; development only)') },
    '/api/dev/captcha/token': { post: say("A reCAPTCHA/hCaptcha token from the local verification double, as the vendor's widget would give (simulators only)") },
    '/api/dev/feed/price': { post: say('Sets one selection price now; its market stops walking (development only)') },
    '/api/dev/feed/hold': { post: say('Suspends or reopens every market of an event (development only)') },
    '/api/dev/feed/pause': { post: say('Stops or restarts the feed schedule (development only)') },
    '/api/dev/feed/settle': { post: say('Finishes an event now with an optional score and settles it (development only)') },
  })

const adminNotes: Record<string, PathItem> = {
  '/admin': { get: say('The staff sign-in page; with a session, a redirect to the studio (support: to the services views)', html('Sign-in page')) },
  '/admin/static/{file}': { get: say('The sign-in and account pages\' script or stylesheet', { responses: { 200: openapi.raw('admin-account.js or admin.css', 'text/javascript') } }) },
  '/admin/account': { get: say("The admin's own account page (every role)", html('Account page')) },
  '/admin/api/login': { post: say('Sign-in step 1: e-mail and password (10 failures per e-mail or address in 15 min: 429); answers a challenge for the second factor (or, on the first sign-in, a new TOTP secret to enrol)') },
  '/admin/api/login/second-factor': { post: say('Sign-in step 2: the challenge and a TOTP code (single use) or a recovery code; sets the session cookie, answers the CSRF token and the signed audit checkpoint') },
  '/admin/api/login/enrol': { post: say('First sign-in: the challenge and the first code of the new TOTP secret; opens the session and answers ten recovery codes, shown once') },
  '/admin/api/account': { get: say("The signed-in admin, the state of their second factor and the audit log's signed checkpoint") },
  '/admin/api/account/password': { post: say("Change one's own password (current and new, at least 15 characters); the admin's other sessions end") },
  '/admin/api/account/recovery-codes': { post: say('Ten new recovery codes for the password (the old ones stop working)') },
  '/admin/api/audit/checkpoint': { get: say("The audit log's head, signed with the audit key, as a file (keep it outside the system; audit:verify --checkpoint checks a log against it)", rawJson('The signed checkpoint')) },
  '/admin/api/session': { get: say('The signed-in admin and the CSRF token') },
  '/admin/api/logout': { post: say('Sign out') },
  '/admin/api/documents': { get: say('Published documents') },
  '/admin/api/document': { get: say('A published document and its version history (?file=)') },
  '/admin/api/versions': { get: say('Versions by state or file (?state=&file=)') },
  '/admin/api/versions/{id}': { get: say('A version with its lint findings and semantic diff'), put: say('Edit a draft (operator)') },
  '/admin/api/versions/{id}/diff': { get: say('The semantic diff of a version (?format=json|markdown|html|sarif)') },
  '/admin/api/versions/{id}/lint': { post: say('Run the lint gate on a version') },
  '/admin/api/drafts': { post: say('Create a draft of a document (operator)') },
  '/admin/api/versions/{id}/submit': { post: say('Submit a draft for review (operator; the lint gate must pass)') },
  '/admin/api/versions/{id}/approve': { post: say('Approve a version under review (compliance; not its author)') },
  '/admin/api/versions/{id}/reject': { post: say('Reject a version with a comment (compliance)') },
  '/admin/api/versions/{id}/withdraw': { post: say('Withdraw a draft or a version under review (operator)') },
  '/admin/api/versions/{id}/publish': { post: say('Publish an approved version') },
  '/admin/api/rollback': { post: say('Ask for a rollback of a document to an earlier published version (a second person approves), or roll back at once in an emergency (reviewed afterwards)') },
  '/admin/api/rollbacks': { get: say('Rollback requests and after-reviews; pending=true: those waiting for a second person') },
  '/admin/api/rollbacks/{id}/approve': { post: say('Approve a rollback request (not its requester): it goes live') },
  '/admin/api/rollbacks/{id}/review': { post: say('Acknowledge an emergency or automatic rollback (not who did it)') },
  '/admin/api/versions/{id}/preview': { post: say('Preview tokens for the published and the proposed side, rendered by the real engine') },
  '/admin/preview/{token}/documents/{kind}/{id}': { get: say('A document as a preview token serves it', rawJson('The served document')) },
  '/admin/api/waivers': { get: say('Waivers of regulatory lint rules, and the rules'), post: say('Request a waiver for a jurisdiction and rule') },
  '/admin/api/waivers/{id}/approve': { post: say('Approve a waiver (compliance)') },
  '/admin/api/waivers/{id}/reject': { post: say('Reject a waiver (compliance)') },
  '/admin/api/audit': { get: say('The audit log, newest first; filters contain, case-insensitive (?actor=&action=&subject=&search=&from=&to=&before=&limit=, from/to epoch ms)') },
  '/admin/api/audit/export': { get: say('The filtered audit log as CSV (same filters; at most 10,000 rows; every field quoted, formula cells guarded); the export is audited', { responses: { 200: openapi.raw('CSV file', 'text/csv') } }) },
  '/admin/api/versions/{id}/thread': { get: say("A version's review thread, oldest first: each step and comment, kept across reject and resubmit (read from the audit log)") },
  '/admin/api/versions/{id}/comments': { post: say("Add a comment to a version's review thread (operator or compliance)") },
  '/admin/api/audit/verify': { get: say("Verify the audit log's hash chain") },
  '/admin/api/approved-fingerprints': { get: say('Fingerprints of approved versions', rawJson('Fingerprints')) },
  '/admin/api/outbox': { get: say('SMS and e-mails the simulators sent (?to=); every read is audited') },
}

// ---- payments, deposit limits and bonuses (issue 12; server/payments) ------------------------
const LIMIT_EXCEEDED = ['DAILY_DEPOSIT_LIMIT_EXCEED', 'WEEKLY_DEPOSIT_LIMIT_EXCEED', 'MONTHLY_DEPOSIT_LIMIT_EXCEED']
const paymentsNotes = tagged('payments', {
    '/api/payments/methods': { get: say("The site's deposit payment sources (jurisdiction document): id, name key, currencies, minimum, maximum, 3-D Secure") },
    [m('payments/deposit')]: {
      post: say("Start a deposit: checks the punter's state, the source, its minimum and maximum and the deposit limits, then answers the provider's page (redirectUrl)", {
        responses: {
          403: openapi.error('Restricted punter or a deposit limit passed (payload.period)', ['CUSTOMER_SELFEXCLUDED', 'INCORRECT_PUNTER_STATE', ...LIMIT_EXCEEDED]),
          ...SERVICE_UNAVAILABLE,
        },
      }),
    },
    [m('payments/deposit/confirm')]: {
      post: say('The return from the provider (/threedsconfirm): asks the provider what happened and credits a success exactly once; repeated or concurrent calls answer the same. A failed payment carries failureCode: CARD_DECLINED (refused before 3-D Secure) or THREE_DS_FAILED', {
        responses: { 404: openapi.error('Not a payment of this punter', ['PAYMENT_NOT_FOUND']) },
      }),
    },
    [m('payments/deposit/{paymentId}')]: { get: say('A payment of the punter as it stands (settled first if the provider has an outcome)') },
    [m('payments/deposit-limits')]: {
      get: say('The punter\'s daily, weekly and monthly deposit limits: in force, waiting (raised, with the time it applies), maximum, used'),
      put: say("Set limits: a stricter one applies at once, a looser one (higher, or null: removed) after the jurisdiction's cooling-off hours (regulatory.depositLimits)"),
    },
    [m('payments/loss-limits')]: {
      get: say('The punter\'s daily, weekly and monthly loss limits (net loss of real money in bets and casino rounds): in force, waiting, maximum, the net loss so far (used)', {
        responses: { 404: openapi.error('The punter\'s jurisdiction offers no loss limits', ['LOSS_LIMITS_NOT_OFFERED']) },
      }),
      put: say("Set loss limits: a stricter one applies at once, a looser one (higher, or null: removed) after the jurisdiction's cooling-off hours (regulatory.lossLimits)", {
        responses: { 404: openapi.error('The punter\'s jurisdiction offers no loss limits', ['LOSS_LIMITS_NOT_OFFERED']) },
      }),
    },
    [m('bonus/punter/promo-code/input')]: {
      post: say("Redeem a promo code: its reward (free bets, a product's bonus account) goes to the punter's bonusInfo", {
        responses: { 409: openapi.error('This punter already used the code', ['PROMO_CODE_ALREADY_USED']), 400: openapi.error('Unknown code, or not for the punter\'s country', ['INVALID_PROMO_CODE', 'ValidationError']) },
      }),
    },
    '/dev/payments/checkout': { get: say("The payment simulator's card page (simulators on)", html('Checkout page')), post: say('Pay or cancel at the simulator; redirects to 3-D Secure or to /threedsconfirm') },
    '/dev/payments/3ds': { get: say("The simulator's 3-D Secure page", html('3-D Secure page')), post: say('Approve, fail or cancel 3-D Secure; redirects to /threedsconfirm?paymentId=') },
  })

/** This file's notes, in the order they were written. */
export const catalogueOpenApi: readonly Record<string, PathItem>[] = [metaNotes, siteNotes, experimentsNotes, validatorsNotes, dictionaryNotes, signupNotes, identityNotes, developmentNotes, adminNotes, paymentsNotes]
