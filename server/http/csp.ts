/**
 * The site's Content Security Policy, and the header of a page that needs one directive more. Every
 * answer gets the site's policy through helmet (server/app.ts); a page with a need of its own (the
 * services page's session replays, the studio's code editor) replaces it with `cspHeader`, changing
 * only the directive it names, so nothing else about the policy can drift between pages.
 */
import { randomBytes } from 'node:crypto'

type Directives = Record<string, string[] | null>

/** No 'unsafe-eval', no inline script, nothing from other origins. */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
  upgradeInsecureRequests: null,
}

/** The header value of the site's policy with `changes` in place of the directives they name. */
export function cspHeader(changes: Directives): string {
  const directives: Directives = { ...CONTENT_SECURITY_POLICY, ...changes }
  return Object.entries(directives)
    .map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...(values ?? [])].join(' '))
    .join('; ')
}

/** A fresh nonce for one answer (128 random bits, base64: what CSP's nonce-source allows). */
export function cspNonce(): string {
  return randomBytes(16).toString('base64')
}
