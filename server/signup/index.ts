/**
 * Server module `signup`: the sign-up calls (./router), the identity simulators and Belarus
 * upload (../identity), the dictionary (../dictionary) and, in development, the public dev outbox.
 *
 * Messages go through a `MessageSender`; without a real provider configured the outbox simulator
 * stores them when simulators are on (read them in /admin, or at /dev/outbox in development);
 * with simulators off and no provider, sign-up refuses to send rather than pretending: plug a
 * provider in with `createSignupModule({ sender })`.
 */
import { useMessageSender } from '../auth/unlock'
import { GATEWAY } from '../deps'
import { createDictionaryRouter } from '../dictionary'
import { createIdentityRouter } from '../identity'
import type { ServerModule } from '../module'
import { createOutboxRouter, DevOutbox, type MessageSender } from './outbox'
import { createSignupRouter } from './router'

export { DevOutbox, type MessageSender, type OutgoingMessage } from './outbox'
export { VERIFICATION_LIMITS } from './verification'

export function createSignupModule(options: { sender?: MessageSender } = {}): ServerModule {
  return {
    name: 'signup',
    mount(app, deps) {
      const outbox = new DevOutbox(deps.data, deps.now)
      const sender: MessageSender = options.sender ?? (deps.config.simulators ? outbox : { send: () => Promise.reject(new Error('no message provider configured')) })
      useMessageSender(deps.db, sender) // the accounts module sends login-unlock links through it
      if (deps.config.development) app.use(createOutboxRouter(deps, outbox))
      app.use(GATEWAY.mobile, createDictionaryRouter(deps))
      app.use(GATEWAY.mobile, createSignupRouter(deps, { sender, outbox }))
      app.use(createIdentityRouter(deps))
    },
  }
}

export const signupModule = createSignupModule()
