/**
 * Server modules: each part of the server (documents, gateway auth, sign-up, experiments, admin …)
 * is one module that mounts its routes (its migrations are in server/db/migrations/index.ts). `server/app.ts` mounts them in
 * this order, top to bottom. Add a module by appending one import and one entry; a module's shape is
 * ./module.ts (a module never imports this list).
 */
import type { ServerModule } from './module'
import { createExperimentsRouter } from './experiments'
import { authModule } from './auth'
import { createContentRouter } from './content/router'
import { createValidatorsModule } from './validators'
import { signupModule } from './signup'
import { adminModule } from './admin'
import { credentialsModule } from './credentials'
import { feedFor } from './feed'
import { regulationModule } from './regulation'
import { paymentsModule } from './payments'
import { feedModule } from './feed/router'
import { betsModule } from './bets'
import { gamesModule } from './games'
import { messagesModule } from './messages'
import { engagementModule } from './engagement'
import { promotionsModule } from './promotions'
import { servicesModule } from './services'

export type { ServerModule }

export const modules: ServerModule[] = [
  {
    name: 'experiments',
    mount(app, deps) {
      app.use('/experiments/api', createExperimentsRouter({ documentsDir: deps.config.documentsDir, now: deps.now }))
    },
  },
  authModule,
  createValidatorsModule(),
  {
    name: 'content',
    mount(app, deps) {
      app.use(createContentRouter(Date.now, feedFor(deps)))
    },
  },
  signupModule,
  adminModule,
  credentialsModule,
  regulationModule,
  paymentsModule,
  feedModule,
  betsModule,
  gamesModule,
  messagesModule,
  engagementModule,
  promotionsModule,
  servicesModule,
]
