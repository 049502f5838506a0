/**
 * The route's first screen rendered on the server with its data (issue 10), so a phone paints the
 * real page from the HTML alone: the screen's data asked of this same server as a guest, its
 * forms' validator modules, and React's markup (engine/ssr.tsx). The same page from the same
 * documents and data renders the same markup, so React runs once per change, not per request.
 * Anything that fails or is slow leaves the page with the boot shell; a `notFound` data source
 * answering 404 makes the page the 404 page (spec §8).
 */
import type { Request } from 'express'
import { createHash } from 'node:crypto'
import { consentSettings, readConsentCookie } from '../../kernel/core/consent-cookie'
import { documentUrl, type BootEntry } from '../../kernel/core/boot-data'
import type { FooterDocument } from '../../kernel/documents/types'
import { renderFirstScreen } from '../../engine/ssr'
import type { ServerDeps } from '../deps'
import { reportCandidateProblem } from '../documents/candidate'
import { importFlowValidatorModule, type FlowLike, type ValidatorModuleExports } from '../validators'
import { askSelf } from './ask-self'
import { stringQuery, type BootPlan, type ScreenSource } from './boot-plan'

/** Rendered first screens kept in memory (a few KB each: pages × locales × sites, and data versions). */
const FIRST_SCREENS_KEPT = 200

/** A `notFound` source answered 404: no first screen, and the page's status is 404. */
class PageNotFound extends Error {}
export const NOT_FOUND = 'not-found' as const

export interface FirstScreen {
  markup: string
  data: { name: string; url: string; body: unknown; value: unknown }[]
  /** How long the data and the render took, for a Server-Timing header. */
  timing: string
}

/** The consent choice the request's cookie holds (the first screen shows the banner without one). */
function consentGiven(cookies: string, boot: { entries: BootEntry[]; locale: string }): string | null {
  const footer = boot.entries.find((entry) => entry.url === documentUrl('footer', 'footer', boot.locale))?.body as FooterDocument | undefined
  return readConsentCookie(cookies, consentSettings(footer?.cookieConsent).cookieName)
}

/**
 * The screen's data as the API answers it, asked of this same server (any `/api/` GET the screen
 * names, exactly as the browser would ask it, as a guest); undefined when one fails or is slow,
 * and the page then keeps the boot shell.
 */
async function screenData(req: Request, sources: ScreenSource[]) {
  const port = req.socket.localPort
  if (port === undefined) return undefined
  try {
    return await Promise.all(
      sources.map(async ({ name, url, notFound }) => {
        const answer = await askSelf(port, url, req.headers.host)
        // the page is the 404 page (spec §8); the browser shows it from the same answer
        if (notFound && answer.status === 404) throw new PageNotFound()
        const body = JSON.parse(answer.text) as { status?: unknown; payload?: unknown }
        if (answer.status >= 500) reportCandidateProblem(`its data ${url} answered ${answer.status}`)
        if (answer.status !== 200 || body?.status !== 'OK') throw new Error(`${url}: ${answer.status}`)
        return { name, url, body, value: body.payload ?? null }
      }),
    )
  } catch (error) {
    return error instanceof PageNotFound ? NOT_FOUND : undefined
  }
}

/** The validator modules of the screen's forms by flow id; undefined when one fails to compile
 * (the page then keeps the boot shell, and the browser's form shows its own error). */
async function formValidators(deps: ServerDeps, flows: FlowLike[]): Promise<Record<string, ValidatorModuleExports> | undefined> {
  try {
    return Object.fromEntries(await Promise.all(flows.map(async (flow) => [flow.id, await importFlowValidatorModule(flow)] as const)))
  } catch (error) {
    if (!reportCandidateProblem(`its form validators do not compile: ${(error as Error).message}`)) deps.log.warn('page.form-validators-failed', { error: (error as Error).message })
    return undefined
  }
}

/** The first screen's React render (undefined: it cannot be rendered as the browser would). */
function render(deps: ServerDeps, req: Request, url: string, boot: BootPlan, experiments: Record<string, unknown>, data: FirstScreen['data'], validators: Record<string, ValidatorModuleExports>) {
  return renderFirstScreen({
    url,
    pathname: req.path,
    locale: boot.locale,
    bootstrap: boot.bootstrap,
    translations: boot.texts,
    entries: boot.entries,
    data,
    validators,
    cookies: req.headers.cookie ?? '',
    experiments,
    popup: boot.popup,
    // the publish gate's render of a candidate is told (documents/candidate.ts); the live site's is logged
    onError: (error) =>
      reportCandidateProblem(`its first screen does not render: ${(error as Error).message}`) ||
      deps.log.warn('page.first-screen-failed', { path: req.path, error: (error as Error).message }),
  })
}

export type RenderFirstScreen = (req: Request, boot: BootPlan, experiments: Record<string, unknown>) => Promise<FirstScreen | typeof NOT_FOUND | undefined>

/** The route's first screen with its data (undefined: the page keeps the boot shell), kept by page, documents and data. */
export function createFirstScreenRenderer(deps: ServerDeps): RenderFirstScreen {
  /** Rendered first screens by page, documents and data; the oldest goes first past the limit. */
  const firstScreens = new Map<string, string>()
  const remember = (key: string, markup: string) => {
    if (firstScreens.size >= FIRST_SCREENS_KEPT) firstScreens.delete(firstScreens.keys().next().value as string)
    firstScreens.set(key, markup)
  }
  return async (req, boot, experiments) => {
    const started = performance.now()
    const [data, validators] = await Promise.all([screenData(req, boot.data), formValidators(deps, boot.flows)])
    const fetched = performance.now()
    if (data === NOT_FOUND) return NOT_FOUND
    if (!data || !validators) return undefined
    const search = new URLSearchParams(stringQuery(req)).toString()
    const url = `${req.path}${search ? `?${search}` : ''}`
    // the same page from the same documents and data renders the same markup: React runs once per
    // change, not per request (10–60 ms a render on this machine under load)
    const consent = consentGiven(req.headers.cookie ?? '', boot)
    const groups = boot.readsGroups ? experiments : null
    const key = createHash('sha1').update(JSON.stringify([url, consent, groups, boot.popup, boot.entries.map((entry) => [entry.url, entry.etag]), data.map((source) => source.body)])).digest('base64url')
    let markup = firstScreens.get(key)
    if (markup === undefined) {
      markup = render(deps, req, url, boot, experiments, data, validators)
      if (markup !== undefined) remember(key, markup)
    }
    const timing = `data;dur=${(fetched - started).toFixed(1)}, ssr;dur=${(performance.now() - fetched).toFixed(1)}`
    return markup === undefined ? undefined : { markup, data, timing }
  }
}
