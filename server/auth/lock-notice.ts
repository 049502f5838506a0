/**
 * The notice a login lock sends its owner (./unlock.ts has the link itself): the link is built on
 * a host the site owns, never on the request's Host header as sent, so a forged Host never gets
 * into a link the owner is asked to open.
 */
import type { Request } from 'express'
import type { ServerDeps } from '../deps'
import { siteContext } from '../http/site'
import type { Punter } from '../punters/repository'
import { composeForPunter } from '../signup/message-texts'
import { sendUnlockLink } from './unlock'

/**
 * The host a link is built on: the request's Host header when its name is one of the site's
 * hosts, else the site's first host (localhost when it names none) with the header's port.
 */
export function trustedHostOf(siteHosts: readonly string[], hostname: string, hostHeader: string | undefined): string {
  if (siteHosts.includes(hostname)) return hostHeader ?? hostname
  const port = /:\d+$/.exec(hostHeader ?? '')?.[0] ?? ''
  return (siteHosts[0] ?? 'localhost') + port
}

/** The request's host if it is one of its site's hosts (its jurisdiction document's `hosts`), else the site's first. */
function trustedHost(deps: ServerDeps, req: Request): string {
  const context = siteContext(req, deps)
  const hosts = ((deps.documents.resolve('jurisdiction', context.site.id, context)?.source as { hosts?: string[] } | undefined)?.hosts ?? []) as string[]
  return trustedHostOf(hosts, req.hostname, req.get('host'))
}

/** The lock engaged on this failure: tell the owner how to lift it (never awaited by the answer). */
export function notifyOwnerOfLock(deps: ServerDeps, req: Request, punter: Punter): void {
  const linkBase = `${req.protocol}://${trustedHost(deps, req)}${req.baseUrl}/auth/login/unlock`
  // the owner's saved language, else the page's (schemas/i18n/*-outbox.json)
  const compose = (link: string) => {
    const email = composeForPunter(deps, req, punter, 'unlockEmail', { link })
    return { subject: email.subject!, email: email.body, sms: composeForPunter(deps, req, punter, 'unlockSms', { link }).body }
  }
  void sendUnlockLink(deps, punter, linkBase, compose).catch((error: Error) => deps.log.error('auth.unlock.failed', { punterId: punter.id, error: error.message }))
}
