/**
 * The closed lists an action's params may take AND its handler or store works with (issue 17:
 * one source for every rule). The action definitions (kernel/actions, loaded by the
 * server's lint and the editor schemas without the client runtime) and the handlers both import
 * them from here, so an editor's completion and the runtime can never disagree. Plain constants:
 * no React, no stores.
 */

/** Logout reasons (spec §3 enumerations; SEFT_LOGOUT is the spec's spelling). */
export const LOGOUT_REASONS = ['AT_EXPIRED', 'RT_EXPIRED', 'SEFT_LOGOUT', 'SOCKET'] as const
export type LogoutReason = (typeof LOGOUT_REASONS)[number]

/** Cookie consent: 'all' lets analytics and the like run; 'necessary' only what the site needs. */
export const CONSENT_CHOICES = ['all', 'necessary'] as const

/** The spec's popup animations (§3 "Popup animations"). */
export const POPUP_ANIMATION_NAMES = ['slide-fade', 'slide', 'fade'] as const

/** Notification tones of the notification stack. */
export const NOTIFICATION_STATUSES = ['success', 'error', 'info', 'warning'] as const

/** The sources of punter messages (spec §9 inbox). */
export const MESSAGE_SOURCES = ['web', 'global', 'club'] as const

/** Self-exclusion kinds (spec §4 "Self-exclusion"): a period, for good, or a timeout in days. */
export const SELF_EXCLUSION_KINDS = ['temporary', 'permanent', 'timeout'] as const
