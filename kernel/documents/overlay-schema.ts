/**
 * The editor schema of an overlay file (schemas/kinds/overlay.schema.json, emitted with the kind
 * schemas): an overlay is partial by design, so its editor checks only what makes it an overlay —
 * the shared file it builds on, the kind and id it shares with it — and no locales or platforms.
 * The server validates the RESOLVED document against the kind's own schema.
 */
import { DOCUMENT_KINDS } from './kinds'
import { OVERLAY_KEY } from './overlay-merge'

export const overlayFileSchema = {
  $id: 'https://parlay.example/schemas/kinds/overlay.schema.json',
  title: 'Parlay jurisdiction overlay',
  description:
    'A jurisdiction’s document that stores only what it changes over a shared document (docs/overlays.md). Objects merge key by key (null removes a key); lists of items with an id (or a name) merge item by item ({"id": …, "$patch": "delete"} removes one); other lists are replaced.',
  type: 'object',
  required: [OVERLAY_KEY, 'kind', 'id'],
  properties: {
    $schema: { type: 'string' },
    [OVERLAY_KEY]: {
      type: 'string',
      pattern: '^(?!jurisdictions/)(?:[a-z0-9-]+/){0,3}[a-z0-9][a-z0-9-]*\\.json$',
      description: 'The shared document this overlay builds on, from the documents folder: "menus/left-menu.json", or a base "bases/flows/signup-email.json".',
    },
    kind: { enum: DOCUMENT_KINDS.filter((kind) => kind !== 'jurisdiction') },
    id: { type: 'string' },
    description: { type: 'string', maxLength: 500 },
    locales: false,
    platforms: false,
  },
} as const
