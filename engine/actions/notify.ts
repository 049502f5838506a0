/**
 * Notifications (spec §3 Notification, §9: 8000 ms by default).
 */
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { defineAction } from './registry'

export const notify = defineAction({
  name: 'notify',
  description: 'Shows a notification with an i18n message for a while (8 s by default).',
  params: {
    type: 'object',
    required: ['message', 'status'],
    properties: {
      message: { type: 'string', description: 'The i18n key of the message.' },
      status: { enum: ['success', 'error', 'info', 'warning'] },
      duration: { type: 'integer', minimum: 0, description: 'Milliseconds; 0 keeps it until dismissed. Default 8000.' },
      values: { type: 'object', description: 'Interpolation values for the message.' },
    },
    additionalProperties: false,
  },
  async handler({ message, status, duration, values }, env) {
    const uid = env.stores.ui.getState().notify({
      id: message,
      status,
      duration: duration ?? NOTIFICATION_DURATION_MS,
      ...(values ? { values: values as Record<string, unknown> } : {}),
    })
    return { ok: true, value: uid }
  },
})

export const notifyActions = [notify]
