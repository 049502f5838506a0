/**
 * What a server module is (documents, gateway auth, sign-up, payments …): a name and the routes it
 * mounts. Its own file, so a module depends on this shape and not on the list that mounts every
 * module (./modules.ts), which would make each module part of one import ring with all the others.
 */
import type { Application } from 'express'
import type { ServerDeps } from './deps'

export interface ServerModule {
  name: string
  /** Called once at start, after migrations, before the SPA fallback. */
  mount(app: Application, deps: ServerDeps): void | Promise<void>
}
