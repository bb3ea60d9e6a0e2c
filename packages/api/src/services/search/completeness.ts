import type { Business } from "@directory/db";

/** Score contract 2.1-phase0 (spec section 9). */
export const SCORE_CONTRACT_VERSION = "2.1-phase0";
export const RANKING_MODEL = "plan-neutral-directory-completeness" as const;
export const COMPLETENESS_LABEL =
  "Directory-owned profile completeness metric (0-100): the share of profile fields that are filled in. " +
  "It is not a ranking factor of any AI platform and not a recommendation; plan contribution is 0.";

/** The profile fields the score reads; a listing query selects these and no more. */
export type CompletenessSource = Pick<
  Business,
  "name" | "address" | "phone" | "website" | "email" | "description" | "services" | "usp" | "tagline" | "keywords" | "openingHours" | "lat" | "lng" | "rating"
>;

/** The fields that count; each is worth the same. The plan tier is deliberately absent. */
const COMPLETENESS_CHECKS: ReadonlyArray<(b: CompletenessSource) => boolean> = [
  (b) => Boolean(b.name),
  (b) => Boolean(b.address),
  (b) => Boolean(b.phone),
  (b) => Boolean(b.website),
  (b) => Boolean(b.email),
  (b) => Boolean(b.description),
  (b) => b.services.length > 0,
  (b) => Boolean(b.usp),
  (b) => Boolean(b.tagline),
  (b) => b.keywords.length > 0,
  (b) => b.openingHours.length > 0,
  (b) => b.lat !== null && b.lng !== null,
  (b) => b.rating !== null,
];

export function directoryCompletenessScore(business: CompletenessSource): number {
  const filled = COMPLETENESS_CHECKS.filter((check) => check(business)).length;
  return Math.round((filled / COMPLETENESS_CHECKS.length) * 100);
}

/** The public score fields every listing carries, in one place. */
export function publicScoreFields(business: CompletenessSource) {
  return {
    directoryCompletenessScore: directoryCompletenessScore(business),
    directoryCompletenessScoreLabel: COMPLETENESS_LABEL,
    rankingModel: RANKING_MODEL,
    recommended: false as const,
  };
}
