/**
 * Demo content for the lobbies and the pages of spec §2: games (the catalogue, ./games.ts) and events per section, the live
 * and pre-match line, an event's markets, results, tournaments, promotions per product, personal
 * offers, favourites, and the tiles' images (SVG drawn here, so the site needs no image files and
 * stays same-origin under the CSP). Answers use the gateway envelope `{ status: 'OK', payload }`;
 * a bad parameter is a 400 in the same envelope.
 */
import { createHash } from 'node:crypto'
import { Router, type Request, type Response } from 'express'
import { eventPage, lineEvents, results, scores, tournaments, type EventState } from './sport'
import { standings } from './standings'
import type { Feed } from '../feed'
import { localLabel } from './labels'
import { OFFERS, pickLocale, PROMOTIONS, WORDS, type PromotionText } from './texts'
import { tilePng } from './tile-png'
import { lobbyGames, tileMotifOf } from './games'

export interface DemoEvent {
  id: string
  title: string
  league: string
  to?: string
}

const EVENTS = new Map<string, [string, string][]>(Object.entries({
  sport: [['Arsenal – Chelsea', 'England. Premier League'], ['Real Madrid – Sevilla', 'Spain. LaLiga'], ['Bayern – Dortmund', 'Germany. Bundesliga'], ['Djokovic – Alcaraz', 'ATP Finals']],
  esports: [['NaVi – FaZe', 'CS2. Major'], ['Team Spirit – Liquid', 'Dota 2. The International'], ['T1 – Gen.G', 'LoL. Worlds']],
  'virtual-sports': [['Virtual Derby, race 14', 'Horse racing'], ['Virtual Cup: Reds – Blues', 'Football'], ['Greyhounds, race 7', 'Greyhounds']],
  toto: [['Toto 15: round 112', 'Correct score, 15 matches'], ['Toto 12: round 48', 'Correct score, 12 matches']],
  scores: [['Milan 2:1 Inter', 'Italy. Serie A, finished'], ['Lakers 101:99 Celtics', 'NBA, 4th quarter'], ['Sinner 6:4 3:2 Medvedev', 'ATP, live']],
} satisfies Record<string, [string, string][]>))

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

const hue = (text: string) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7)

export function demoEvents(section: string, localeName?: unknown): DemoEvent[] {
  const locale = pickLocale(localeName)
  return (EVENTS.get(section) ?? []).map(([title, league]) => ({ id: slug(title), title: localLabel(title, locale), league: localLabel(league, locale) }))
}

function tileSvg(id: string): string {
  const h = hue(id)
  const label = id.replace(/-/g, ' ').toUpperCase().slice(0, 18)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="180" viewBox="0 0 240 180"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${h},70%,45%)"/><stop offset="1" stop-color="hsl(${(h + 60) % 360},70%,30%)"/></linearGradient></defs><rect width="240" height="180" fill="url(#g)"/><circle cx="190" cy="40" r="60" fill="#ffffff" fill-opacity="0.12"/><text x="16" y="160" font-family="system-ui,sans-serif" font-size="16" font-weight="700" fill="#ffffff">${label}</text></svg>`
}

/** An image with its ETag (its bytes' hash); a request that already holds them gets a 304. */
function sendImage(req: Request, res: Response, type: string, body: Buffer): void {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
  res.setHeader('ETag', etag)
  if (req.headers['if-none-match'] === etag) {
    res.status(304).end()
    return
  }
  res.type(type).send(body)
}

/** Image cache lifetime (spec §9 "image cache TTL 60 s"), in seconds for Cache-Control. */
const IMAGE_CACHE_TTL_S = 60

const LINE_SECTIONS = ['sport', 'esports', 'toto']
const FAVOURITE_SECTIONS = ['casino', 'live-casino', 'live-games', 'virtual-sports']
const STATES: EventState[] = ['live', 'prematch']

const queryText = (req: Request, name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined)

function ok(res: Response, payload: unknown): void {
  res.setHeader('Cache-Control', 'no-cache')
  res.json({ status: 'OK', payload })
}

function bad(res: Response, errorCode: string): void {
  res.status(400).json({ status: 'ERROR', errorCode })
}

/** A parameter that must be one of a list: the value, or a 400 already sent. */
function oneOf<T extends string>(req: Request, res: Response, name: string, allowed: readonly T[], errorCode: string): T | undefined {
  const value = queryText(req, name)
  if (value !== undefined && (allowed as readonly string[]).includes(value)) return value as T
  bad(res, errorCode)
  return undefined
}

function promotionCards(list: PromotionText[], localeName: unknown, now: number) {
  const locale = pickLocale(localeName)
  const until = (days: number) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(now + days * 86_400_000)
  return list.map((p) => ({ id: p.id, title: p.title[locale], subtitle: `${p.body[locale]} ${WORDS.validUntil[locale]} ${until(p.days)}.` }))
}

export function createContentRouter(now: () => number = Date.now, feed?: Feed): Router {
  const router = Router()
  router.get('/api/content/line', (req, res) => {
    const section = oneOf(req, res, 'section', LINE_SECTIONS, 'UNKNOWN_SECTION')
    const state = section && oneOf(req, res, 'state', STATES, 'UNKNOWN_STATE')
    if (section && state) ok(res, feed ? lineEvents(feed, section, state, req.query.locale) : [])
  })
  router.get('/api/content/event', (req, res) => {
    const section = oneOf(req, res, 'section', LINE_SECTIONS, 'UNKNOWN_SECTION')
    const state = section && oneOf(req, res, 'state', STATES, 'UNKNOWN_STATE')
    if (!section || !state) return
    const id = queryText(req, 'id')
    if (id !== undefined && !/^[a-z0-9-{}.]{0,80}$/.test(id)) return bad(res, 'INVALID_EVENT_ID')
    const page = feed ? eventPage(feed, section, state, id, req.query.locale) : null
    if (page === undefined) return void res.status(404).json({ status: 'ERROR', errorCode: 'EVENT_NOT_FOUND' })
    ok(res, page)
  })
  router.get('/api/content/results', (req, res) => {
    const section = oneOf(req, res, 'section', LINE_SECTIONS, 'UNKNOWN_SECTION')
    if (section) ok(res, feed ? results(feed, section, req.query.locale) : [])
  })
  router.get('/api/content/statistics', (req, res) => {
    const section = oneOf(req, res, 'section', ['sport', 'esports'], 'UNKNOWN_SECTION')
    if (section) ok(res, feed ? standings(feed, section as 'sport' | 'esports', req.query.locale) : [])
  })
  router.get('/api/content/scores', (req, res) => ok(res, feed ? scores(feed, req.query.locale) : []))
  router.get('/api/content/tournaments', (req, res) => ok(res, feed ? tournaments(feed, req.query.locale) : []))
  router.get('/api/content/promotions', (req, res) => {
    const section = oneOf(req, res, 'section', Object.keys(PROMOTIONS), 'UNKNOWN_SECTION')
    if (section) ok(res, promotionCards(PROMOTIONS[section], req.query.locale, now()))
  })
  router.get('/api/content/offers', (req, res) => ok(res, promotionCards(OFFERS, req.query.locale, now())))
  // Favourites are not stored yet: every punter starts with none (the page offers games to add).
  router.get('/api/content/favorites', (req, res) => {
    if (oneOf(req, res, 'section', FAVOURITE_SECTIONS, 'UNKNOWN_SECTION')) ok(res, [])
  })
  router.get('/api/content/games', (req, res) => {
    const section = typeof req.query.section === 'string' ? req.query.section : ''
    res.setHeader('Cache-Control', 'no-cache')
    res.json({ status: 'OK', payload: lobbyGames(section, req.query.locale) })
  })
  router.get('/api/content/events', (req, res) => {
    const section = typeof req.query.section === 'string' ? req.query.section : ''
    res.setHeader('Cache-Control', 'no-cache')
    res.json({ status: 'OK', payload: demoEvents(section, req.query.locale) })
  })
  // tiles are PNG (tile-png.ts: an SVG image is a document of its own for the browser); the SVG
  // form stays served for links stored before (favourites, cached documents)
  const pngs = new Map<string, Buffer>()
  router.get('/api/content/images/:file', (req, res) => {
    const match = /^([a-z0-9-]{1,60})\.(svg|png)$/.exec(req.params.file)
    if (!match) {
      res.status(404).json({ status: 'ERROR', errorCode: 'NOT_FOUND' })
      return
    }
    // spec §9 "image cache TTL 60 s": the browser keeps a tile 60 s, then revalidates it (ETag →
    // 304, no bytes again); docs/adr/0083-client-cache-namespaces.md
    res.setHeader('Cache-Control', `public, max-age=${IMAGE_CACHE_TTL_S}`)
    if (match[2] === 'svg') return sendImage(req, res, 'image/svg+xml', Buffer.from(tileSvg(match[1])))
    let png = pngs.get(match[1])
    if (!png) {
      png = tilePng(hue(match[1]), tileMotifOf(match[1]))
      if (pngs.size < 500) pngs.set(match[1], png)
    }
    sendImage(req, res, 'image/png', png)
  })
  return router
}
