/**
 * Composes an SMS or e-mail from its template (kernel/messages/outbox-templates.ts) in the
 * punter's language (issue 34 item 2): the texts are the translations documents' (a jurisdiction
 * may override them like any text), the locale is the request's at sign-up and recovery, the
 * punter's saved one otherwise (else the site's default: such a request may not come from the
 * owner — a stranger's wrong passwords, a resend anyone may ask — so its language is not theirs). A locale lacking a text falls back to the site's default, then
 * English; a text missing everywhere, or a placeholder left unfilled, throws: no raw key or
 * `{{placeholder}}` ever leaves in a message.
 */
import type { Request } from 'express'
import { fillPlaceholders, outboxKeys, type OutboxTemplateName } from '../../kernel/messages/outbox-templates'
import type { ServerDeps } from '../deps'
import { translationsFor } from '../documents/router'
import { siteContext, type SiteContext } from '../http/site'

export interface ComposedMessage {
  subject?: string
  body: string
  /** The locale the words are in (the outbox keeps no such column; tests and logs read it here). */
  locale: string
}

type Words = Pick<ServerDeps, 'documents'>

/** The text of `key` in `locale` for the site, else its default locale, else English. */
function textOf(deps: Words, where: SiteContext, locale: string, key: string): string {
  for (const candidate of [...new Set([locale, where.site.defaultLocale, 'en'])]) {
    const text = translationsFor(deps, where, candidate)?.resources[key]
    if (typeof text === 'string' && text !== '') return text
  }
  throw new Error(`no text for ${key}`)
}

export function composeMessage(deps: Words, where: SiteContext, locale: string, template: OutboxTemplateName, values: Readonly<Record<string, string>> = {}): ComposedMessage {
  const keys = outboxKeys(template)
  const body = fillPlaceholders(textOf(deps, where, locale, keys.body), values)
  return { body, locale, ...(keys.subject ? { subject: fillPlaceholders(textOf(deps, where, locale, keys.subject), values) } : {}) }
}

/** The punter's saved locale when their site offers it, else the site's default. */
export function punterLocale(saved: unknown, site: { locales: readonly string[]; defaultLocale: string }): string {
  return typeof saved === 'string' && site.locales.includes(saved) ? saved : site.defaultLocale
}

/** A message in the request's language (sign-up, recovery: the punter chose it on the page). */
export const composeForRequest = (deps: Words, req: Request, template: OutboxTemplateName, values?: Readonly<Record<string, string>>): ComposedMessage => {
  const where = siteContext(req, deps)
  return composeMessage(deps, where, where.locale, template, values)
}

/** A punter row's settings JSON text read for its saved locale (unreadable: none saved). */
export function parseSettings(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** A message in the punter's language (the request bound to the punter's site): the locale saved
 * in the punter's settings, else the one they signed up in, else the site's default. */
export const composeForPunter = (deps: Words, req: Request, punter: { settings: Record<string, unknown>; signupLocale?: string | null }, template: OutboxTemplateName, values?: Readonly<Record<string, string>>): ComposedMessage => {
  const where = siteContext(req, deps)
  return composeMessage(deps, where, punterLocale(punter.settings.locale ?? punter.signupLocale, where.site), template, values)
}
