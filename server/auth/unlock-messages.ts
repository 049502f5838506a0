/**
 * The unlock message (./unlock.ts) in every locale the sites declare: it goes to the account's
 * owner, who may not read English, in the language they chose on the site (issue 9). A message
 * leaves the site, so its words live with the server that sends it, like the content API's words
 * (server/content/texts.ts), not in the translations documents the browser downloads.
 */
import { pickLocale, type ContentLocale } from '../content/texts'

export interface UnlockMessage {
  subject: string
  /** The e-mail body; `{link}` is the unlock link. */
  email: string
  /** The SMS body (short); `{link}` is the unlock link. */
  sms: string
}

const MESSAGES: Record<ContentLocale, UnlockMessage> = {
  en: {
    subject: 'Your Parlay login is paused',
    email:
      'Someone tried to log in to your Parlay account with wrong passwords, so logging in is paused. If it was you, open this link to log in again at once: {link}\nIf it was not you, you can ignore this message. The link works once, for 24 hours.',
    sms: 'Parlay: logins to your account are paused after wrong passwords. To log in again now open {link}',
  },
  ru: {
    subject: 'Вход в ваш аккаунт Parlay приостановлен',
    email:
      'Кто-то пытался войти в ваш аккаунт Parlay с неверным паролем, поэтому вход приостановлен. Если это были вы, откройте ссылку, чтобы сразу войти снова: {link}\nЕсли это были не вы, просто не обращайте внимания на это письмо. Ссылка действует один раз в течение 24 часов.',
    sms: 'Parlay: вход в аккаунт приостановлен из-за неверных паролей. Чтобы войти сейчас, откройте {link}',
  },
  be: {
    subject: 'Уваход у ваш акаўнт Parlay прыпынены',
    email:
      'Хтосьці спрабаваў увайсці ў ваш акаўнт Parlay з няправільным паролем, таму ўваход прыпынены. Калі гэта былі вы, адкрыйце спасылку, каб адразу ўвайсці зноў: {link}\nКалі гэта былі не вы, проста не звяртайце ўвагі на гэты ліст. Спасылка дзейнічае адзін раз на працягу 24 гадзін.',
    sms: 'Parlay: уваход у акаўнт прыпынены праз няправільныя паролі. Каб увайсці зараз, адкрыйце {link}',
  },
  es: {
    subject: 'Hemos pausado el acceso a tu cuenta de Parlay',
    email:
      'Alguien ha intentado entrar en tu cuenta de Parlay con contraseñas incorrectas, así que hemos pausado el acceso. Si has sido tú, abre este enlace para volver a entrar al momento: {link}\nSi no has sido tú, puedes ignorar este mensaje. El enlace solo funciona una vez y caduca en 24 horas.',
    sms: 'Parlay: hemos pausado el acceso a tu cuenta tras varias contraseñas incorrectas. Para entrar ahora, abre {link}',
  },
  pt: {
    subject: 'O acesso à sua conta Parlay foi pausado',
    email:
      'Alguém tentou entrar na sua conta Parlay com senhas erradas, por isso o acesso foi pausado. Se foi você, abra este link para entrar de novo na hora: {link}\nSe não foi você, pode ignorar esta mensagem. O link funciona uma única vez, por 24 horas.',
    sms: 'Parlay: o acesso à sua conta foi pausado depois de senhas erradas. Para entrar agora, abra {link}',
  },
  da: {
    subject: 'Log ind på din Parlay-konto er sat på pause',
    email:
      'Nogen har forsøgt at logge ind på din Parlay-konto med forkerte adgangskoder, så log ind er sat på pause. Hvis det var dig, kan du åbne dette link og logge ind igen med det samme: {link}\nHvis det ikke var dig, kan du se bort fra denne besked. Linket virker én gang i 24 timer.',
    sms: 'Parlay: log ind på din konto er sat på pause efter forkerte adgangskoder. Åbn {link} for at logge ind nu',
  },
  it: {
    subject: "L'accesso al tuo conto Parlay è sospeso",
    email:
      "Qualcuno ha provato ad accedere al tuo conto Parlay con password errate, quindi l'accesso è stato sospeso. Se sei stato tu, apri questo link per accedere di nuovo subito: {link}\nSe non sei stato tu, puoi ignorare questo messaggio. Il link funziona una sola volta, per 24 ore.",
    sms: "Parlay: l'accesso al tuo conto è sospeso dopo password errate. Per accedere ora apri {link}",
  },
}

/** The message in `locale` (English for a locale no site declares), the link filled in. */
export function unlockMessage(locale: string, link: string): UnlockMessage {
  const texts = MESSAGES[pickLocale(locale)]
  return { subject: texts.subject, email: texts.email.replace('{link}', link), sms: texts.sms.replace('{link}', link) }
}

/** The owner's language: their saved locale when the site offers it, else the site's default. */
export function ownerLocale(saved: unknown, site: { locales: readonly string[]; defaultLocale: string }): string {
  return typeof saved === 'string' && site.locales.includes(saved) ? saved : site.defaultLocale
}
