/*
 * Freshness: the useful life of each property and when a fact goes stale live in @directory/db
 * (claim-freshness.ts), where the listing's own freshness columns are projected from them too.
 */
import { staleAfterOf } from "@directory/db";

export { staleAfterOf, USEFUL_LIFE_DAYS } from "@directory/db";

/**
 * What a claim's confidence means, stated once for the OpenAPI description and the MCP
 * instructions: its scale, and what raises or lowers it.
 */
export const CONFIDENCE_MEANING =
  "confidence (0 to 1) is how sure the directory is that a claim's value was true when observed: 1 for a value an admin verified (or an accepted correction), " +
  "0.8 for the business's own statement, 0.6 to 0.9 for a registry import (OpenStreetMap: 0.7, +0.05 per address, phone, website or hours it lists, -0.1 for an element unedited for 5 years). " +
  "A newer claim supersedes an older one; confidence never decays with time: age is what staleAfter and stale say (each property has a useful life: hours 180 days, phone 365, description 730).";

/** A current claim, as much of it as a standing needs. */
interface StandingClaim {
  property: string;
  value: unknown;
  observedAt: Date | string;
}

/** A stated operating status, or unverified since the moment the last current fact went stale. */
export type Standing =
  { status: "open" | "temporarily_closed" | "permanently_closed"; closedOn?: string; reopensOn?: string } | { status: "unverified"; since: string };

/**
 * The one rule every door reads for "is it open": the current operatingStatus claim when there is
 * one, however old (someone stated it; its own staleness shows on the claim). Without one, open
 * while any current fact is within its useful life; once every fact is past it, unverified: nothing
 * current supports open. `since` is when the newest fact went stale (the largest staleAfter), the
 * moment the listing stopped having any fresh support; the claims' observedAt say when each was seen.
 * A listing without claims (none is created so) reads open.
 */
export function standingOf(current: readonly StandingClaim[], at: Date): Standing {
  const stated = current.find((claim) => claim.property === "operatingStatus");
  if (stated) return stated.value as Standing;
  let lastStaleAfter = -Infinity;
  for (const claim of current) lastStaleAfter = Math.max(lastStaleAfter, staleAfterOf(claim.property, claim.observedAt).getTime());
  if (current.length === 0 || lastStaleAfter > at.getTime()) return { status: "open" };
  return { status: "unverified", since: new Date(lastStaleAfter).toISOString() };
}
