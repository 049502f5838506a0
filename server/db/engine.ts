/**
 * The two database engines the query layer runs on. Its own file so schema.ts (whose steps take the
 * engine) and data-layer.ts (which picks it) do not import each other.
 */
export type Engine = 'sqlite' | 'postgres'
