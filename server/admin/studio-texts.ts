/**
 * The texts of translation keys in every locale, for the studio's "texts beside the element"
 * (issue 29 item 7): the form shows each key an element names with one editable box per locale,
 * and saves an edit as a draft of that locale's translations file (the normal review path).
 *
 *   GET /admin/api/studio/texts?key=signup.field.email&key=…   (at most 20 keys)
 *     → { locales, texts: { [key]: [{ locale, file, text }] } }
 *
 * Shared translations only (a jurisdiction's own wording is edited in its file). A locale without
 * the key gets the file of the same area as a locale that has it (`i18n/es-signup.json` beside
 * `i18n/en-signup.json`), or the locale's main file, and `text: null`.
 */
import { Router } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'

const KEY = /^[A-Za-z0-9_.-]{1,120}$/

export function createStudioTextsRouter(deps: ServerDeps): Router {
  const router = Router()
  router.get('/admin/api/studio/texts', (req, res) => {
    const keys = ([] as unknown[]).concat(req.query.key ?? [])
    if (keys.length === 0 || keys.length > 20 || !keys.every((k): k is string => typeof k === 'string' && KEY.test(k))) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'key' })
    const locales = [...new Set(deps.documents.sites().flatMap((s) => s.locales))].sort()
    const shared = deps.documents.list('translations').filter((r) => r.jurisdiction === '')
    const texts = Object.fromEntries(keys.map((key) => [key, textsOf(key, locales, shared)]))
    sendOk(res, { locales, texts })
  })
  return router
}

type Record_ = ReturnType<ServerDeps['documents']['list']>[number]

function textsOf(key: string, locales: string[], shared: Record_[]): { locale: string; file: string; text: string | null }[] {
  const resources = (r: Record_) => (r.source.resources ?? {}) as Record<string, unknown>
  const holding = shared.filter((r) => typeof resources(r)[key] === 'string')
  // the area of the key's file in any locale: "signup" of i18n/en-signup.json
  const area = holding[0] ? (/^i18n\/[a-z]{2,3}(-[a-z0-9-]+)?\.json$/.exec(holding[0].file)?.[1] ?? '') : ''
  return locales.map((locale) => {
    const own = holding.find((r) => r.source.locale === locale)
    if (own) return { locale, file: own.file, text: resources(own)[key] as string }
    const sameArea = shared.find((r) => r.file === `i18n/${locale}${area}.json`)
    return { locale, file: sameArea?.file ?? `i18n/${locale}.json`, text: null }
  })
}
