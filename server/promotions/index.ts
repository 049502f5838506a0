/**
 * Server module `promotions` (issue 15 item 4): promotions from promotion documents.
 *
 *   GET /api/promotions?product&locale               live promotions a guest may see (spec §6)
 *   GET /api/promotions/{id}?locale                  one of them (its page)
 *   GET {mobile}/bonus/promotions[/{product}]        live promotions for the logged-in punter (guests' and members' own)
 *   GET {mobile}/bonus/promotions/detail/{id}        one of them, members' own included
 *   GET {mobile}/bonus/ticket/active-campaigns       the punter's offers: live campaigns, the ones taken part in first
 *
 * Taking part is typing the promotion's promo code (POST {mobile}/bonus/punter/promo-code/input,
 * server/payments): that route calls `announceParticipation`, which sends the punter the
 * promoParticipation event (spec §3).
 *
 * An admin's preview page (its preview header) reads the preview's promotions, so a promotion's
 * draft shows in the studio's live preview and in review (server/documents/preview-documents.ts).
 */
import { Router, type Request, type Response } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { validateQuery } from '../http/validate'
import { translationsFor } from '../documents/router'
import { documentsOf, previewTokenOf } from '../documents/preview-documents'
import type { DocumentsView } from '../documents/service'
import type { ServerModule } from '../module'
import type { Punter } from '../punters/repository'
import { emitPunterEvent } from '../punters/events'
import { promoCodesUsedBy } from '../payments/bonus'
import { requirePunter } from '../signup/punters'
import { PROMOTION_PRODUCTS } from '../../kernel/documents/kinds'
import { promotionCard, promotionsOfSite, isLive, visiblePromotions, type PromotionDocument } from './catalogue'

const LOCALE = { type: 'string', pattern: '^[a-z]{2,3}$' } as const
export const LIST_QUERY = { type: 'object', additionalProperties: false, properties: { product: { enum: PROMOTION_PRODUCTS }, locale: LOCALE } } as const
export const ONE_QUERY = { type: 'object', additionalProperties: false, properties: { locale: LOCALE } } as const
const ID = /^[a-z0-9][a-z0-9-]{0,79}$/

/** The words of a card in the request's locale (schemas/i18n/*-promos.json). */
function wordsFor(deps: ServerDeps, req: Request, documents: DocumentsView) {
  const context = siteContext(req, deps)
  const texts = translationsFor({ documents }, context, context.locale)?.resources ?? {}
  const english = translationsFor({ documents }, context, 'en')?.resources ?? {}
  return {
    locale: context.locale,
    fallback: context.site.defaultLocale,
    jurisdiction: context.jurisdiction,
    until: texts['promos.until'] ?? english['promos.until'] ?? 'Until {{date}}',
    prize: texts['promos.prize'] ?? english['promos.prize'] ?? 'Prize {{amount}}',
    participating: texts['promos.participating'] ?? english['promos.participating'] ?? 'You are taking part',
  }
}

/** Sends promoParticipation when a used code belongs to a live promotion of the punter's site. */
export function announceParticipation(deps: ServerDeps, jurisdiction: string, punterId: number, promoCode: string): PromotionDocument | undefined {
  const now = deps.now()
  const promotion = promotionsOfSite(deps.documents.list('promotion'), jurisdiction).find((p) => isLive(p, now) && p.participationCode?.toUpperCase() === promoCode.toUpperCase())
  emitPunterEvent('promoParticipation', { punterId, promoCode: promoCode.toUpperCase(), promotionId: promotion?.id ?? null, product: promotion?.product ?? null })
  return promotion
}

export function createPromotionsRouter(deps: ServerDeps): Router {
  const router = Router()
  const gate = Router()
  const auth = requirePunter(deps)
  /** The cards a request sees, from the published promotions or (an admin's preview page) the preview's; undefined: a refused preview. */
  const cards = async (req: Request, loggedIn: boolean, product?: string) => {
    const read = await documentsOf(req, deps)
    if (!read.ok) return undefined
    const words = wordsFor(deps, req, read.documents)
    return visiblePromotions(read.documents.list('promotion'), { jurisdiction: words.jurisdiction, loggedIn, now: deps.now() })
      .filter((p) => !product || p.product === product)
      .map((p) => promotionCard(p, words.locale, words.fallback, words))
  }
  const answer = (req: Request, res: Response, payload: unknown) => {
    if (payload === undefined) return sendError(res, 403, 'PREVIEW_REFUSED')
    res.setHeader('Cache-Control', previewTokenOf(req) === undefined ? 'no-cache' : 'no-store')
    res.setHeader('Vary', 'Host, Accept-Language')
    sendOk(res, payload)
  }
  const one = async (req: Request, res: Response, loggedIn: boolean) => {
    const id = String(req.params.id)
    const all = ID.test(id) ? await cards(req, loggedIn) : []
    const card = all?.find((c) => c.id === id)
    if (all && !card) return sendError(res, 404, 'PROMOTION_NOT_FOUND')
    answer(req, res, card)
  }

  router.get('/api/promotions', validateQuery(LIST_QUERY), async (req, res) => answer(req, res, await cards(req, false, req.query.product as string | undefined)))
  router.get('/api/promotions/:id', validateQuery(ONE_QUERY), (req, res) => one(req, res, false))

  gate.get('/bonus/promotions', auth, validateQuery(ONE_QUERY), async (req, res) => answer(req, res, await cards(req, true)))
  gate.get('/bonus/promotions/detail/:id', auth, validateQuery(ONE_QUERY), (req, res) => one(req, res, true))
  gate.get('/bonus/promotions/:product', auth, validateQuery(ONE_QUERY), async (req, res) => {
    const product = String(req.params.product)
    if (!(PROMOTION_PRODUCTS as readonly string[]).includes(product)) return sendError(res, 404, 'UNKNOWN_PRODUCT')
    answer(req, res, await cards(req, true, product))
  })
  gate.get('/bonus/ticket/active-campaigns', auth, validateQuery(ONE_QUERY), async (req, res) => {
    const punter = res.locals.punter as Punter
    // the promo code uses belong to the payments store (issue 16: read through its function, never joined)
    const used = await promoCodesUsedBy(deps.data, punter.id)
    const read = await documentsOf(req, deps)
    const shown = await cards(req, true)
    if (!read.ok || !shown) return sendError(res, 403, 'PREVIEW_REFUSED')
    const { participating: takingPart } = wordsFor(deps, req, read.documents)
    const now = deps.now()
    const codes = new Map(promotionsOfSite(read.documents.list('promotion'), siteContext(req, deps).jurisdiction).filter((p) => isLive(p, now)).map((p) => [p.id, p.participationCode?.toUpperCase()]))
    const campaigns = shown.map((card) => {
      const code = codes.get(card.id)
      const participating = code !== undefined && used.has(code)
      return { ...card, participating, subtitle: participating ? `${takingPart} · ${card.subtitle}` : card.subtitle }
    })
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, campaigns.sort((a, b) => Number(b.participating) - Number(a.participating)))
  })

  router.use(GATEWAY.mobile, gate)
  return router
}

export const promotionsModule: ServerModule = {
  name: 'promotions',
  mount(app, deps) {
    app.use(createPromotionsRouter(deps))
  },
}
