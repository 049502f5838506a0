/**
 * Document types, derived from the schemas in `./kinds.ts` with json-schema-to-ts.
 * The only hand-written part closes the recursion json-schema-to-ts cannot follow (node children,
 * action chains); every field still comes from the schema.
 */
import type { FromSchema } from 'json-schema-to-ts'
import type { CompiledExpression } from '../core/expression'
import type {
  flowSchema,
  footerSchema,
  gameSchema,
  headerSchema,
  jurisdictionSchema,
  menuSchema,
  nodeKindProperties,
  popupSchema,
  remoteConfigSchema,
  screenSchema,
  translationsSchema,
} from './kinds'

type Recurse<T> = T extends (infer E)[]
  ? E extends { do: string }
    ? ActionInvocation[]
    : E extends { type: string }
      ? DocumentNode[]
      : T
  : T

type Close<T> = { [K in keyof T]: K extends 'onSuccess' ? ActionChain : K extends 'onError' ? Record<string, ActionChain> : Recurse<T[K]> }

type RawDocument<S> = Close<FromSchema<S extends object ? S : never>>

export type ScreenDocument = RawDocument<typeof screenSchema>
export type PopupDocument = RawDocument<typeof popupSchema>
export type MenuDocument = RawDocument<typeof menuSchema>
export type FooterDocument = RawDocument<typeof footerSchema>
export type HeaderDocument = RawDocument<typeof headerSchema>
export type FlowDocument = RawDocument<typeof flowSchema>
export type JurisdictionDocument = RawDocument<typeof jurisdictionSchema>
export type RemoteConfigDocument = RawDocument<typeof remoteConfigSchema>
export type TranslationsDocument = RawDocument<typeof translationsSchema>
export type GameDocument = FromSchema<typeof gameSchema>

export type MenuItem = MenuDocument['items'][number]
export type FooterItem = FooterDocument['items'][number]
export type HeaderItem = HeaderDocument['items'][number]
export type ProfileLink = HeaderDocument['profile']['links'][number]
export type PopupButton = NonNullable<PopupDocument['buttons']>[number]
export type FlowStep = FlowDocument['steps'][number]
export type AfterLoginRule = NonNullable<JurisdictionDocument['afterLogin']>[number]

/** An expression as a document author writes it, or as the server ships it (compiled). */
export type Expression = string | CompiledExpression
/** A value computed from the context. */
export interface Binding {
  $: Expression
}
/** An i18n key, or key + interpolation values + plural count. */
export type Text = string | { key: string; values?: Record<string, Binding | string | number | boolean>; count?: Binding | number }

export interface ActionInvocation {
  do: string
  with?: Record<string, unknown>
  when?: Expression
  onSuccess?: ActionChain
  onError?: Record<string, ActionChain>
}
export type ActionChain = ActionInvocation[]

type NodeKindSpecs = typeof nodeKindProperties
export type NodeKind = keyof NodeKindSpecs

interface NodeCommon {
  id?: string
  when?: Expression
  testId?: string
}

/** The properties of one node kind, derived from its schema; children closed recursively. */
export type NodeOf<K extends NodeKind> = NodeCommon & { type: K } & Close<FromSchema<{ type: 'object' } & NodeKindSpecs[K]>>

export type KnownNode = { [K in NodeKind]: NodeOf<K> }[NodeKind]
/** A node as it arrives: a known kind, or a kind this client does not know (skipped, reported). */
export type DocumentNode = KnownNode | (NodeCommon & { type: string; [key: string]: unknown })

export type AnyDocument =
  | ScreenDocument
  | PopupDocument
  | MenuDocument
  | FooterDocument
  | HeaderDocument
  | FlowDocument
  | JurisdictionDocument
  | RemoteConfigDocument
  | TranslationsDocument
