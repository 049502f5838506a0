/**
 * The dictionary routes, mounted by the signup module (spec §3 "Dictionary", §7 "Dictionary and content", under the
 * mobile gate): countries, currencies, user location, site settings, the phone country table,
 * Italian provinces and communes, address search. Answers are cached 15 minutes in memory keyed
 * by method + language + site id + params hash (spec §7 "Caching"), and say so in Cache-Control.
 */
import { Router, type Request, type Response } from 'express'
import type { JurisdictionDocument } from '../../kernel/documents/types'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { check, validateBody } from '../http/validate'
import { cacheKey, createDictionaryCache, DICTIONARY_CACHE_MS } from './cache'
import { allCountries, countryByCode, countryById, countryIdOf, CURRENCIES } from './countries'
import { communesOf, DEMO_ADDRESSES, PROVINCES } from './italy'
import { phoneCountries } from '../../kernel/core/phone-rule'
import { availableTimeouts, bettingModes, oddsTypes, timeZones } from './settings-choices'
import { siteChoiceRoutes } from './site-choices'
import { jurisdictionOf } from './jurisdiction-of'

export { jurisdictionOf }

export { phoneCountries, parsePhone, phoneCountry, isValidNational, type PhoneCountry } from '../../kernel/core/phone-rule'
export { allCountries, countryById, countryByCode, countryIdOf, CURRENCIES, currencyById } from './countries'

/** The nickname policy as served: its skipCountries also as country ids. */
function withSkipCountryIds(policy: unknown): Record<string, unknown> {
  const block = (policy ?? {}) as { skipCountries?: unknown }
  const codes = Array.isArray(block.skipCountries) ? block.skipCountries.filter((c): c is string => typeof c === 'string' && /^[A-Z]{2}$/.test(c)) : []
  return { ...block, skipCountryIds: codes.map(countryIdOf) }
}

export function signupPolicy(deps: Pick<ServerDeps, 'documents'>, req: Request): Record<string, unknown> {
  return ((jurisdictionOf(deps, req) as unknown as { signup?: Record<string, unknown> }).signup ?? {}) as Record<string, unknown>
}

/** The site's default country for forms and phone input (jurisdiction `signup.defaultCountry`). */
export function defaultCountryCode(deps: Pick<ServerDeps, 'documents'>, req: Request): string {
  const code = signupPolicy(deps, req).defaultCountry
  return typeof code === 'string' ? code : 'CW'
}

const ID_PARAM = { type: 'string', pattern: '^[0-9]{1,6}$' } as const
const SITE_ID_PARAM = { type: 'string', pattern: '^[a-z][a-z0-9-]{0,39}$' } as const

const ADDRESS_SEARCH = {
  type: 'object',
  required: ['query'],
  additionalProperties: false,
  properties: { query: { type: 'string', minLength: 2, maxLength: 100 } },
} as const

/** GET /dictionary/settings: the sign-up settings of the site's served jurisdiction document. */
function siteSettings(doc: Record<string, unknown>) {
  return {
    jurisdiction: doc.id,
    minimumAge: doc.minimumAge,
    currency: doc.currency,
    signup: doc.signup ?? {},
    // skipCountryIds: the same skipCountries as country ids (what the sign-up forms hold), so a
    // flow can hide its nickname field from this one policy (server/identity/nickname.ts)
    nickname: withSkipCountryIds(doc.nickname),
    countryCheck: doc.countryCheck ?? {},
  }
}

export function createDictionaryRouter(deps: ServerDeps): Router {
  const router = Router()
  const cache = createDictionaryCache(deps.now)

  const cached = <T>(req: Request, res: Response, method: string, params: unknown, compute: () => T) => {
    const context = siteContext(req, deps)
    const { value, hit } = cache.get(cacheKey(method, context.locale, context.site.id, params), compute)
    res.setHeader('Cache-Control', `private, max-age=${DICTIONARY_CACHE_MS / 1000}`)
    res.setHeader('X-Dictionary-Cache', hit ? 'hit' : 'miss')
    sendOk(res, value)
  }

  router.get('/dictionary/all-platform-countries', (req, res) => cached(req, res, 'allPlatformCountries', null, () => allCountries(siteContext(req, deps).locale)))
  router.get('/dictionary/countries', (req, res) => cached(req, res, 'countries', null, () => allCountries(siteContext(req, deps).locale)))
  router.get('/dictionary/currencies', (req, res) => cached(req, res, 'currencies', null, () => CURRENCIES))

  // the choices of the account settings (spec §3 "Dictionary")
  router.get('/dictionary/odds-types', (req, res) => cached(req, res, 'oddsTypes', null, oddsTypes))
  router.get('/dictionary/time-zones', (req, res) => cached(req, res, 'timeZones', null, () => timeZones(deps.now())))
  router.get('/dictionary/available-timeouts', (req, res) => cached(req, res, 'availableTimeouts', null, availableTimeouts))
  router.get('/dictionary/betting-modes', (req, res) => cached(req, res, 'bettingModes', null, bettingModes))

  router.get('/dictionary/user-location', (req, res) => {
    // No geo-IP here: the region of Accept-Language, else the site's default country.
    const region = /^[a-z]{2,3}-([A-Z]{2})/i.exec(String(req.headers['accept-language'] ?? ''))?.[1]?.toUpperCase()
    const code = region && countryByCode(region) ? region : defaultCountryCode(deps, req)
    cached(req, res, 'userLocation', { code }, () => {
      const country = countryByCode(code)
      const currency = CURRENCIES.find((c) => c.id === country?.defaultCurrencyId)
      return { countryCode: code, countryId: country?.id ?? null, currencyCode: currency?.code ?? 'USD' }
    })
  })

  router.get('/dictionary/settings', (req, res) => {
    // The served copy: server-only fields (promo codes) never reach a browser.
    const context = siteContext(req, deps)
    const doc = (deps.documents.resolve('jurisdiction', context.site.id, context)?.served ?? {}) as Record<string, unknown>
    cached(req, res, 'settings', null, () => siteSettings(doc))
  })

  // the site's own lists (locales, titles, genders …, products): behind a session, the punter's own site's
  siteChoiceRoutes(router, deps, cached)

  router.get('/dictionary/site-info/:id', (req, res) => {
    const problem = check(SITE_ID_PARAM, req.params.id)
    if (problem) return sendError(res, 400, 'ValidationError', { field: 'id', code: problem.code })
    const site = deps.documents.site(String(req.params.id))
    if (!site) return sendError(res, 404, 'NOT_FOUND')
    cached(req, res, 'siteInfo', { id: site.id }, () => ({ id: site.id, name: site.name, currency: site.currency, locales: site.locales, minimumAge: site.minimumAge }))
  })

  router.get('/account/signup/phone/config', (req, res) =>
    cached(req, res, 'phoneConfig', null, () => ({ defaultCountry: defaultCountryCode(deps, req), countries: phoneCountries() })),
  )

  router.get('/dictionary/italy/provinces', (req, res) => cached(req, res, 'italyProvinces', null, () => PROVINCES))
  router.get('/dictionary/italy/provinces/:id/communes', (req, res) => {
    const problem = check(ID_PARAM, req.params.id)
    if (problem) return sendError(res, 400, 'ValidationError', { field: 'id', code: problem.code })
    const id = Number(req.params.id)
    if (!PROVINCES.some((p) => p.id === id)) return sendError(res, 404, 'NOT_FOUND')
    cached(req, res, 'italyCommunes', { id }, () => communesOf(id))
  })

  router.post('/dictionary/address-search/:id', validateBody(ADDRESS_SEARCH), (req, res) => {
    const problem = check(ID_PARAM, req.params.id)
    const country = problem ? undefined : countryById(Number(req.params.id))
    if (!country) return sendError(res, 400, 'ValidationError', { field: 'id', code: 'enum' })
    const query = String((req.body as { query: string }).query).toLocaleLowerCase()
    cached(req, res, 'addressSearch', { id: country.id, query }, () =>
      DEMO_ADDRESSES.filter((a) => a.countryCode === country.code && (a.street.toLocaleLowerCase().includes(query) || a.city.toLocaleLowerCase().startsWith(query))),
    )
  })

  return router
}
