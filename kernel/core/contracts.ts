/**
 * The seams of the engine, as types: the framework-free core implements them, the React renderers
 * and the server speak them. Changing a shape here is an API change for every part.
 */
import type { CompiledExpression } from './expression'
import type { ActionChain, DocumentNode } from '../documents/types'
import type { RedirectRule } from './routes'
import type { CurrencyDisplays } from './format'

/** Result of any operation that can fail with a product error code (spec §8). */
/** A failure's `text`, when set, is what a form shows for it instead of the code's own text: the
 * action knows the journey (a self-excluded LOGIN is refused; the code alone also serves sign-up
 * and deposits). `message` is for developers, never shown. */
export type Result<T> = { ok: true; value: T } | { ok: false; code: string; message?: string; details?: unknown; httpStatus?: number; text?: { key: string; values?: Record<string, unknown> } }

/** Gateway envelope, spec §7/§8 (server → client). */
export type Envelope<T> = { status: 'OK'; payload: T } | { status: 'ERROR'; errorCode: string; payload?: unknown }

/** What `GET /api/site` answers: everything the shell needs before the first render. */
export interface SiteBootstrap {
  site: {
    id: string
    jurisdiction: string
    name: string
    defaultLocale: string
    locales: string[]
    currency: string
    /** The jurisdiction document's currencyDisplay: how amounts in a currency are written (kernel/core/format.ts). */
    currencyDisplay?: CurrencyDisplays
    /** The jurisdiction document's country (ISO 3166): phone fields' preset, the experiment geo. */
    country?: string
    /** The country's English name (the experiment geo's `country`). */
    countryName?: string
    minimumAge: number
    mainProduct: string
    development: boolean
    /** The jurisdiction document's loyalty.campaign (spec §6: Curaçao and Russia load the loyalty campaign). */
    loyaltyCampaign?: boolean
    /** The jurisdiction document's betting.stake (major units of the punter's currency): the bet
     * slip's quick stakes and its stake hint; the server enforces it (docs/money-rules.md). */
    betStake?: { minimum: number; maximum: number }
    /** The jurisdiction document's games.stake (major units): a game page's stake choices; the
     * server enforces it per round. */
    gameStake?: { minimum: number; maximum: number }
  }
  /** Spec §3 "Remote app config" for this site. */
  remoteConfig: Record<string, unknown>
  /** Every screen the site serves: the router is built from this. */
  routes: RouteEntry[]
  /** The redirects document's rules (spec §2 catch-alls and legacy paths); see core/routes.ts. */
  redirects?: RedirectRule[]
  /** Hash of every published document for this site; changes when any document changes. */
  documentsVersion: string
  /** Web version (spec §9: 1.22.0), sent back as the version header. */
  version: string
}

export interface RouteEntry {
  screen: string
  route: string
  section: string
  login: boolean
}

/** Headers every gateway and document request carries (spec §7). */
export const HEADERS = {
  source: 'x-parlay-source',
  target: 'x-parlay-target',
  version: 'x-parlay-version',
  sessionHash: 'punter-session-hash',
  /** An admin preview page's token (its `?preview=`): the APIs that build a page from documents
   * (promotions, the quiz, messages) then read the preview's documents (server/documents/preview-documents.ts). */
  preview: 'x-parlay-preview',
} as const

/** Documents API: `GET /api/documents/{kind}/{id}?locale=xx` → the resolved, compiled document.
 * ETag + If-None-Match → 304. Expressions arrive compiled: see CompiledExpression. */
export const DOCUMENTS_API = '/api/documents'

/** A served document: the source document with every expression replaced by its compiled form. */
export type ServedDocument<T> = T & { $etag?: string }

export type { CompiledExpression, ActionChain, DocumentNode }
