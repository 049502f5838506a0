/**
 * The typed shape of every table behind the query layer (issue 16: one data layer, two engines).
 *
 * Each store declares its own tables by augmenting this interface from its own file, so the store
 * owns its schema and this shared file never grows into a merge hot spot:
 *
 *   declare module '../db/tables' { interface Tables { auth_login_failures: LoginFailureTable } }
 *
 * Column types are what BOTH engines hand back: numbers (PostgreSQL BIGINT is read as a JS number
 * by the pool, see ./data-layer.ts), strings, never engine-specific objects.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Tables {}
