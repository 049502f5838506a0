/**
 * Demo messages (issue 15 item 1): the ordinary open punter (opened@demo, 10000001) finds a
 * two-page inbox (23 messages, the newest 3 unread) so paging, mark-read and the unread count can
 * be seen at once; the VIP punter has one club message. Seeded at start, once per demo key (also
 * when several instances start at once: the unique key keeps the first writer's).
 */
import type { ServerDeps } from '../deps'
import { punterIdByAccountNumber } from '../punters/lookups'
import { deliver, hasDemoMessage, insertDemoMessage, markDeliveriesRead } from './store'

const HOUR = 60 * 60 * 1000

interface DemoMessage {
  key: string
  accountNumber: string
  source: 'web' | 'club'
  texts: Record<string, string>
  read: boolean
  hoursAgo: number
}

export function demoMessages(): DemoMessage[] {
  const weekly: DemoMessage[] = Array.from({ length: 23 }, (_, i) => {
    const n = 23 - i // message 23 is the newest
    return {
      key: `opened-${n}`,
      accountNumber: '10000001',
      source: 'web',
      read: n <= 20,
      hoursAgo: (23 - n) * 24 + 1,
      texts: {
        en: `Weekly news #${n}: new markets and games are waiting for you.`,
        ru: `Новости недели №${n}: вас ждут новые рынки и игры.`,
        be: `Навіны тыдня №${n}: вас чакаюць новыя рынкі і гульні.`,
        es: `Novedades de la semana n.º ${n}: te esperan nuevos mercados y juegos.`,
        pt: `Novidades da semana n.º ${n}: novos mercados e jogos esperam por você.`,
        da: `Ugens nyheder nr. ${n}: nye markeder og spil venter på dig.`,
        it: `Novità della settimana n. ${n}: ti aspettano nuovi mercati e giochi.`,
      },
    }
  })
  const club: DemoMessage = {
    key: 'vip-club-1',
    accountNumber: '10000008',
    source: 'club',
    read: false,
    hoursAgo: 2,
    texts: {
      en: 'Welcome to the VIP club: your personal manager will contact you this week.',
      ru: 'Добро пожаловать в VIP-клуб: ваш персональный менеджер свяжется с вами на этой неделе.',
      be: 'Вітаем у VIP-клубе: ваш асабісты менеджар звяжацца з вамі на гэтым тыдні.',
      es: 'Bienvenido al club VIP: tu gestor personal se pondrá en contacto contigo esta semana.',
      pt: 'Bem-vindo ao clube VIP: o seu gestor pessoal entrará em contacto consigo esta semana.',
      da: 'Velkommen i VIP-klubben: din personlige manager kontakter dig i denne uge.',
      it: 'Benvenuto nel club VIP: il tuo manager personale ti contatterà questa settimana.',
    },
  }
  return [...weekly, club]
}

/**
 * Inserts the demo messages not there yet (by key); a demo punter that is missing is skipped.
 * Each is written, delivered, then marked read when it should be: a start that stops in between
 * leaves a message that a later start skips by its key, never a duplicate.
 */
export async function seedDemoMessages(deps: Pick<ServerDeps, 'db' | 'data'>, now: number): Promise<number> {
  let added = 0
  for (const demo of demoMessages()) {
    if (await hasDemoMessage(deps.data.db, demo.key)) continue
    const punterId = await punterIdByAccountNumber(deps.data, demo.accountNumber)
    if (punterId === undefined) continue
    const at = now - demo.hoursAgo * HOUR
    const message = await insertDemoMessage(deps.data.db, { source: demo.source, kind: 'INBOX', texts: demo.texts, audience: { type: 'punter', punterId, accountNumber: demo.accountNumber }, author: 'demo', demoKey: demo.key }, at)
    if (!message) continue // another instance starting at the same moment wrote it (and delivers it)
    await deliver(deps.data, message.id, null, at)
    if (demo.read) await markDeliveriesRead(deps.data.db, message.id, at)
    added++
  }
  return added
}
