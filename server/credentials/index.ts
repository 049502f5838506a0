/**
 * Server module `credentials` (issue 13 item 6): lost password by e-mail link or SMS code, create
 * and change password with the password history, the secret question, adding and changing the
 * e-mail, logins by one-time token, open-profile, and the join form saved between visits. Mounted
 * after the sign-up module, whose message sender (the outbox when simulators are on) it uses.
 */
import { Router } from 'express'
import { noStore } from '../auth/router'
import { GATEWAY } from '../deps'
import type { ServerModule } from '../module'
import { mountAccount } from './account'
import { createCredentialsContext } from './context'
import { mountJoinForm } from './join-form'
import { mountRecovery } from './recovery'
import { mountTokenLogin } from './token-login'
import './store'

export { issueOpenProfileToken } from './token-login'

export const credentialsModule: ServerModule = {
  name: 'credentials',
  mount(app, deps) {
    const ctx = createCredentialsContext(deps)
    const router = Router()
    // Answers carry tokens or say something about an account: never stored by a cache.
    router.use(['/account/password', '/account/credentials', '/account/secret-question', '/account/email', '/account/add-email', '/account/update-email'], noStore)
    mountRecovery(router, ctx)
    mountAccount(router, ctx)
    mountTokenLogin(router, ctx)
    mountJoinForm(router, ctx)
    app.use(GATEWAY.mobile, router)
  },
}
