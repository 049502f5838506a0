/**
 * Rule `code-channels` (issue 34 item 5): a flow that offers a phone code channel (a `channelType`
 * field: sign-up, lost password) offers only channels the jurisdiction document of every site it is
 * served to allows (`signup.codeChannels`; the server refuses the others, so the punter would meet
 * a refusal). A jurisdiction's own flow is served to it; a shared flow to every site without its own.
 */
import type { DocumentRecord } from '../documents/loader'
import { allowedCodeChannels } from '../../../kernel/signup/code-channels'
import type { Finding } from '../finding'

export const CODE_CHANNELS_RULE = 'code-channels'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The channels each step offers: [step index, enum values]. */
function offered(flow: DocumentRecord): [number, string[]][] {
  const steps = Array.isArray(flow.source.steps) ? flow.source.steps : []
  return steps.flatMap((step, index): [number, string[]][] => {
    const field = isObject(step) && isObject(step.schema) && isObject(step.schema.properties) ? step.schema.properties.channelType : undefined
    return isObject(field) && Array.isArray(field.enum) ? [[index, field.enum.filter((v): v is string => typeof v === 'string')]] : []
  })
}

export function codeChannelFindings(records: DocumentRecord[]): Finding[] {
  const jurisdictions = records.filter((r) => r.kind === 'jurisdiction')
  const ownFlow = (jurisdiction: string, id: string) => records.some((r) => r.kind === 'flow' && r.id === id && r.jurisdiction === jurisdiction)
  return records
    .filter((r) => r.kind === 'flow')
    .flatMap((flow) => {
      const sites = jurisdictions.filter((j) => (flow.jurisdiction ? j.jurisdiction === flow.jurisdiction : !ownFlow(j.jurisdiction, flow.id)))
      return offered(flow).flatMap(([step, channels]) =>
        sites.flatMap((site) => {
          const allowed: string[] = allowedCodeChannels(site.source)
          return channels
            .filter((channel) => !allowed.includes(channel))
            .map((channel) => ({
              file: flow.file,
              pointer: `/steps/${step}/schema/properties/channelType/enum`,
              message: `offers the code channel ${channel}, which ${site.jurisdiction}'s jurisdiction document does not allow (signup.codeChannels: ${allowed.join(', ')})`,
              severity: 'error' as const,
              rule: CODE_CHANNELS_RULE,
            }))
        }),
      )
    })
}
