/** The shape of an action definition (see ./index.ts, the actions' one source). */

/** The subset of JSON Schema the browser-side param check understands. */
export interface ParamSchema {
  type?: string | readonly string[]
  enum?: readonly unknown[]
  properties?: Readonly<Record<string, ParamSchema>>
  required?: readonly string[]
  items?: ParamSchema
  [key: string]: unknown
}

export interface ActionDefinitionData {
  description: string
  params: ParamSchema
}

/** A domain's definitions: action name → definition. */
export type ActionDefinitions = Readonly<Record<string, ActionDefinitionData>>
