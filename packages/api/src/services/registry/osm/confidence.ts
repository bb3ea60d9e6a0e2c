/**
 * How much an OpenStreetMap element is trusted, 0..1, in one place so it can be stated and tested.
 *
 * - 0.7 to start: OSM is a registry edited by people on the ground, usually right about what and
 *   where a place is, but nobody vouches for it the way an owner or an admin does.
 * - +0.05 for each sign that someone looked closely: a street address, a phone number, a website,
 *   opening hours (at most +0.2). Complete elements are the ones mappers keep up to date.
 * - -0.1 when the element was last edited more than 5 years before the newest edit in the extract:
 *   shops close and move, and an old edit is more likely to describe a place that is gone.
 *   Measured against the extract, not the clock, so importing the same file always gives the
 *   same confidence.
 */
export const BASE_CONFIDENCE = 0.7;
export const COMPLETENESS_STEP = 0.05;
export const STALE_PENALTY = 0.1;
export const STALE_AFTER_MS = 5 * 365.25 * 24 * 3600 * 1000;

export interface ConfidenceInput {
  hasAddress: boolean;
  hasPhone: boolean;
  hasWebsite: boolean;
  hasOpeningHours: boolean;
  /** The element's last edit. */
  observedAt: Date;
  /** The newest edit of any element in the extract: "now" as far as the extract knows. */
  newestEdit: Date;
}

export function osmConfidence(input: ConfidenceInput): number {
  const signs = [input.hasAddress, input.hasPhone, input.hasWebsite, input.hasOpeningHours].filter(Boolean).length;
  const stale = input.newestEdit.getTime() - input.observedAt.getTime() > STALE_AFTER_MS;
  const score = BASE_CONFIDENCE + signs * COMPLETENESS_STEP - (stale ? STALE_PENALTY : 0);
  // Rounded so the value stored in a claim is the same on every run and every platform.
  return Math.round(Math.min(1, Math.max(0, score)) * 100) / 100;
}
