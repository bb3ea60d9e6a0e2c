import { CLAIM_PROPERTIES, type ClaimProperty, type ClaimVerification } from "../enums";
import type { Rng } from "./random";
import type { ClaimRow } from "./rows";
import { DAY_SECONDS, addSeconds } from "./time";

/**
 * Every property a demo business has a current claim for: all but openingHoursText, the hours as a
 * registry wrote them, and operatingStatus (no claim reads as open; the demo world is unchanged).
 */
export type DemoClaimedProperty = Exclude<ClaimProperty, "openingHoursText" | "operatingStatus">;
export const DEMO_CLAIMED_PROPERTIES = CLAIM_PROPERTIES.filter(
  (property): property is DemoClaimedProperty => property !== "openingHoursText" && property !== "operatingStatus",
);

/**
 * The claims drawn from the business's own random stream, in the order they have always been
 * drawn. Adding to or reordering this list would shift every draw after it, and with them every
 * demo name and slug that tests, the README and docs/ name.
 */
const LISTING_PROPERTIES = [
  "name",
  "phone",
  "website",
  "email",
  "address",
  "description",
  "services",
  "usp",
  "tagline",
  "keywords",
  "openingHours",
] as const satisfies readonly DemoClaimedProperty[];
export type ListingProperty = (typeof LISTING_PROPERTIES)[number];

/**
 * The rest (category, city, postalCode, coordinates, rating, reviewCount): claimed from the row
 * once it is built, with a random stream of their own, so that claiming them left every existing
 * business and claim as it was.
 */
export type RowProperty = Exclude<DemoClaimedProperty, ListingProperty>;
const ROW_PROPERTIES = DEMO_CLAIMED_PROPERTIES.filter((property): property is RowProperty => !(LISTING_PROPERTIES as readonly string[]).includes(property));

interface Provenance {
  source: string;
  confidence: number;
  verification: ClaimVerification;
}

/** "demo:" marks demo provenance, so a real source is never confused with generated data. */
function provenance(rng: Rng, ownership: "owner_verified" | "unclaimed"): Provenance {
  if (ownership === "unclaimed") {
    return { source: "demo:business-registry", confidence: rng.float(0.6, 0.85, 2), verification: "registry" };
  }
  if (rng.chance(0.3)) {
    return { source: "demo:admin-review", confidence: rng.float(0.95, 1, 2), verification: "admin_verified" };
  }
  return { source: "demo:owner-dashboard", confidence: rng.float(0.7, 0.9, 2), verification: "self_reported" };
}

export interface ClaimPlan {
  businessId: string;
  ownership: "owner_verified" | "unclaimed";
  createdAtMs: number;
  /** The flat column values; each becomes the current claim of its property. */
  current: Record<ListingProperty, unknown>;
  /** Earlier values, each superseded by the current claim of the same property. */
  previous: Partial<Record<ListingProperty, unknown>>;
}

export interface BuiltClaims {
  /** Current claims come first: superseded rows reference them, and may land in a later statement. */
  current: ClaimRow[];
  superseded: ClaimRow[];
  /** Latest observation: the business's updatedAt. */
  lastObservedMs: number;
  observedMs: Record<ListingProperty, number>;
}

/**
 * Current claims are observed within 90 days of creation; a property with history was first
 * observed within 30 days and replaced 1 to 90 days later, so observedAt never exceeds updatedAt.
 */
export function buildListingClaims(rng: Rng, plan: ClaimPlan): BuiltClaims {
  const current: ClaimRow[] = [];
  const superseded: ClaimRow[] = [];
  const observedMs = {} as Record<ListingProperty, number>;
  let lastObservedMs = plan.createdAtMs;
  for (const property of LISTING_PROPERTIES) {
    const hasHistory = property in plan.previous;
    const firstSeen = addSeconds(plan.createdAtMs, rng.int(0, (hasHistory ? 30 : 90) * DAY_SECONDS));
    const seen = hasHistory ? addSeconds(firstSeen, rng.int(DAY_SECONDS, 90 * DAY_SECONDS)) : firstSeen;
    const claim: ClaimRow = {
      id: rng.uuid(),
      businessId: plan.businessId,
      property,
      value: plan.current[property],
      ...provenance(rng, plan.ownership),
      observedAt: seen,
      supersededAt: null,
      supersededBy: null,
      recordId: null,
      // The demo learned each fact when it was observed; a fixed value keeps two seeds identical.
      recordedAt: seen,
    };
    current.push(claim);
    if (hasHistory) {
      superseded.push({
        id: rng.uuid(),
        businessId: plan.businessId,
        property,
        value: plan.previous[property],
        ...provenance(rng, plan.ownership),
        observedAt: firstSeen,
        supersededAt: seen,
        supersededBy: claim.id,
        recordId: null,
        recordedAt: firstSeen,
      });
    }
    observedMs[property] = seen;
    if (seen > lastObservedMs) lastObservedMs = seen;
  }
  return { current, superseded, lastObservedMs, observedMs };
}

export interface RowClaimPlan {
  businessId: string;
  ownership: "owner_verified" | "unclaimed";
  createdAtMs: number;
  /** The business's updatedAt: the latest observation of its listing claims. */
  lastObservedMs: number;
  /** The row's values in claim form (category and city as slugs, coordinates as `{ lat, lng }`). */
  values: Record<RowProperty, unknown>;
}

/**
 * The current claims of the row properties, with the provenance rules of the listing claims.
 * Each is observed between creation and the last listing observation, so updatedAt stays the
 * latest observation of the business.
 */
export function buildRowClaims(rng: Rng, plan: RowClaimPlan): ClaimRow[] {
  const window = Math.floor((plan.lastObservedMs - plan.createdAtMs) / 1000);
  return ROW_PROPERTIES.map((property): ClaimRow => {
    const id = rng.uuid();
    const { source, confidence, verification } = provenance(rng, plan.ownership);
    const seen = addSeconds(plan.createdAtMs, rng.int(0, window));
    const value = plan.values[property];
    return {
      id,
      businessId: plan.businessId,
      property,
      value,
      source,
      confidence,
      verification,
      observedAt: seen,
      supersededAt: null,
      supersededBy: null,
      recordId: null,
      recordedAt: seen,
    };
  });
}
