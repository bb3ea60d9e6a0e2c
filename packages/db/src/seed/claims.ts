import type { ClaimVerification } from "../schema/enums";
import type { Rng } from "./random";
import type { ClaimRow } from "./rows";
import { DAY_SECONDS, addSeconds } from "./time";

/** Every listing field that is a claim, in the camelCase the API uses as the claim's property. */
export const CLAIMED_PROPERTIES = [
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
] as const;
export type ClaimedProperty = (typeof CLAIMED_PROPERTIES)[number];

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
  current: Record<ClaimedProperty, unknown>;
  /** Earlier values, each superseded by the current claim of the same property. */
  previous: Partial<Record<ClaimedProperty, unknown>>;
}

export interface BuiltClaims {
  /** Current claims come first: superseded rows reference them, and may land in a later statement. */
  current: ClaimRow[];
  superseded: ClaimRow[];
  /** Latest observation: the business's updatedAt. */
  lastObservedMs: number;
  observedMs: Record<ClaimedProperty, number>;
}

/**
 * Current claims are observed within 90 days of creation; a property with history was first
 * observed within 30 days and replaced 1 to 90 days later, so observedAt never exceeds updatedAt.
 */
export function buildClaims(rng: Rng, plan: ClaimPlan): BuiltClaims {
  const current: ClaimRow[] = [];
  const superseded: ClaimRow[] = [];
  const observedMs = {} as Record<ClaimedProperty, number>;
  let lastObservedMs = plan.createdAtMs;
  for (const property of CLAIMED_PROPERTIES) {
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
      });
    }
    observedMs[property] = seen;
    if (seen > lastObservedMs) lastObservedMs = seen;
  }
  return { current, superseded, lastObservedMs, observedMs };
}
