/**
 * What "New document" in the studio starts from (issue 29 item 7): for each kind an operator can
 * create, the folder its files live in and a small document that passes the kind's schema and the
 * publish gate as it is (tests/http/admin/authoring.test.ts submits each one), so a new draft is
 * valid from its first save and the operator edits from there in the form. Texts point at keys
 * that exist in every locale until the operator writes their own.
 */
import type { DocumentKind } from '../../kernel/documents/kinds'

type Doc = Record<string, unknown>
export interface Starter {
  folder: string
  /** The starting document of id `id`; `today` an ISO date (YYYY-MM-DD) of the server's clock. */
  make: (id: string, today: string) => Doc
}

const schemaOf = (kind: string, depth: number) => `${'../'.repeat(depth)}kinds/${kind}.schema.json`
const later = (today: string, days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().replace('.000Z', 'Z')

const PROMOTION_LOCALES = ['en', 'es', 'it', 'da', 'ru', 'be', 'pt']

export const STARTERS: Partial<Record<DocumentKind, Starter>> = {
  promotion: {
    folder: 'promotions',
    make: (id, today) => ({
      kind: 'promotion',
      id,
      product: 'sport',
      startsAt: later(today, 7),
      endsAt: later(today, 37),
      shownToGuests: false,
      texts: Object.fromEntries(PROMOTION_LOCALES.map((locale) => [locale, { title: `New promotion ${id}`, body: 'What the punter gets.', terms: 'Who may take part, and until when.' }])),
    }),
  },
  quiz: {
    folder: 'quizzes',
    make: (id, today) => ({
      kind: 'quiz',
      id,
      status: 'PAUSE',
      title: 'quiz.cupFinal.title',
      question: 'quiz.cupFinal.question',
      answers: [
        { id: 'under', text: 'quiz.cupFinal.answer.under' },
        { id: 'over', text: 'quiz.cupFinal.answer.over' },
      ],
      correctAnswer: 'over',
      startTime: later(today, 7),
      endTime: later(today, 14),
      eventId: 'e493817001',
      awards: [{ id: 'first', prize: 10, awardCurrencyCode: 'USD' }],
    }),
  },
  popup: {
    folder: 'popups',
    make: (id) => ({
      kind: 'popup',
      id,
      modal: 'info',
      animation: 'fade',
      title: 'popup.info.title',
      body: [{ type: 'text', text: 'popup.info.body' }],
      buttons: [{ label: 'common.ok', variant: 'primary', actions: [{ do: 'popup.close' }] }],
    }),
  },
  screen: {
    folder: 'screens',
    make: (id) => ({
      kind: 'screen',
      id,
      route: `/pages/${id}`,
      section: 'account',
      title: 'page.account-contact-us.title',
      body: [{ type: 'text', variant: 'title', text: 'page.account-contact-us.title' }],
    }),
  },
}

/** The file of a new document: the kind's folder, shared or under one jurisdiction. */
export function starterFile(kind: DocumentKind, id: string, jurisdiction: string | null): string {
  const folder = STARTERS[kind]!.folder
  return jurisdiction ? `jurisdictions/${jurisdiction}/${folder}/${id}.json` : `${folder}/${id}.json`
}

/** The starting text of a new document, with the `$schema` path its file's depth needs. */
export function starterText(kind: DocumentKind, id: string, jurisdiction: string | null, today: string): string {
  const doc = STARTERS[kind]!.make(id, today)
  return `${JSON.stringify({ $schema: schemaOf(kind, jurisdiction ? 3 : 1), ...doc }, null, 2)}\n`
}
