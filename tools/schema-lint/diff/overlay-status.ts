/**
 * A version that turns a jurisdiction's overlay into a whole copy (or back) changes no served
 * value, yet decides whether later shared changes still reach that site: the review must say so
 * (docs/adr/0005-jurisdiction-overlays.md). A fork is a warning; becoming an overlay a note.
 */
import { overlayBaseOf } from '../../../kernel/documents/overlay-set'
import { classifyWords } from './classify'
import { documentIdentity, fingerprintOf, refOf, type DiffFinding } from './differ'
import { snapshotOf } from './sources'

/** The finding for one file whose text goes from `before` to `after` (either may be absent). */
export function overlayStatusFindings(file: string, before: string | undefined, after: string | undefined): DiffFinding[] {
  if (before === undefined || after === undefined) return []
  const [was, now] = [overlayBaseOf(before), overlayBaseOf(after)]
  const snapshot = snapshotOf(file, after)
  if (was === now || !snapshot || !snapshot.jurisdiction) return []
  const document = refOf(snapshot)
  const impact = classifyWords(snapshot.id) ?? 'cosmetic'
  const rule = now ? 'overlay.became-overlay' : 'overlay.became-copy'
  const message = now ? `now an overlay on ${now}: later changes of it reach this site` : `now a whole copy instead of an overlay on ${was}: later changes of ${was} will no longer reach this site`
  return [{ fingerprint: fingerprintOf(impact, documentIdentity(document), '/', rule), rule, impact, severity: now ? 'note' : 'warning', direction: 'neutral', message: `${document.label}: ${message}`, document, location: '/' }]
}
