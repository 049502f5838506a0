/**
 * The line every admin page shows under its header (issue 30 item 5): the audit log's head as a
 * signed checkpoint — entries, the start of the head hash, when it was signed — and the link that
 * downloads it. Staff who keep these files hold a record of the log's length that nobody with the
 * database and the data folder can take back.
 */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function checkpointLine(checkpoint: Record<string, unknown>): string {
  const entries = String(checkpoint.entries)
  const head = String(checkpoint.head).slice(0, 16)
  const signed = String(checkpoint.signedAt).replace('T', ' ').slice(0, 19)
  return `<p class="checkpoint muted" data-testid="audit-checkpoint" data-entries="${escapeHtml(entries)}" data-head="${escapeHtml(String(checkpoint.head))}">Audit log checkpoint: ${escapeHtml(entries)} entries, head ${escapeHtml(head)}…, signed ${escapeHtml(signed)} UTC · <a href="/admin/api/audit/checkpoint" download data-testid="audit-checkpoint-download">Download</a></p>`
}
