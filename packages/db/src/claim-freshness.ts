import { sql } from "drizzle-orm";
import type { Db } from "./client";
import type { ClaimProperty } from "./enums";
import { rowsOf } from "./rows";

/*
 * How long a fact stays worth trusting without being seen again: the one table of useful lives,
 * per property, in days. A claim's staleAfter is its observedAt plus its property's life; past it,
 * the claim is marked stale: true on every door (it is still served: an old fact beats none, but
 * an agent should say how old it is or check it). Chosen from how often each kind of fact changes:
 * - opening hours, 180: they change with seasons, staff and leases, the facts people complain of most;
 * - rating and review count, 180: aggregates that move with every review;
 * - operating status, 180: a closure (or a reopening) needs checking about twice a year;
 * - phone, website, email, services, 365: contact details change with providers and owners,
 *   about once in a few years, so a yearly check catches most;
 * - description, tagline, USP, keywords, address, postal code, 730: what a business does and where
 *   it is change when it moves or reinvents itself;
 * - name, category, city, coordinates, 1,095: they change with a rebrand or a move, rarely.
 *
 * Here, in the data package, because the listing's own freshness columns (last_verified_at,
 * facts_stale_after) are projected from it by the seed, the claim write path and the backfill alike.
 */
export const USEFUL_LIFE_DAYS: Record<ClaimProperty, number> = {
  openingHours: 180,
  openingHoursText: 180,
  rating: 180,
  reviewCount: 180,
  operatingStatus: 180,
  phone: 365,
  website: 365,
  email: 365,
  services: 365,
  description: 730,
  tagline: 730,
  usp: 730,
  keywords: 730,
  address: 730,
  postalCode: 730,
  name: 1_095,
  category: 1_095,
  city: 1_095,
  coordinates: 1_095,
};

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Properties not in the table (none today) get a year. */
const DEFAULT_LIFE_DAYS = 365;

/** When a fact observed at observedAt stops being fresh. */
export function staleAfterOf(property: string, observedAt: Date | string | number): Date {
  const days = USEFUL_LIFE_DAYS[property as ClaimProperty] ?? DEFAULT_LIFE_DAYS;
  return new Date(new Date(observedAt).getTime() + days * DAY_MS);
}

/** A fact a person vouched for: an admin verified it or the business stated it (not a registry's import). */
export function isVouched(verification: string): boolean {
  return verification !== "registry";
}

/** A current claim, as much of it as its listing's freshness needs. */
export interface HeldClaim {
  property: string;
  verification: string;
  observedAt: Date | string | number;
}

/** A listing's freshness columns, as the businesses table holds them. */
export interface ListingFreshness {
  /** The newest observedAt of a vouched current claim; null when none. */
  lastVerifiedAt: Date | null;
  /** When each current claim goes stale, in epoch minutes rounded up, ascending. */
  factsStaleAfter: number[];
}

/** The freshness of a listing from its current claims (one per property). */
export function listingFreshness(current: readonly HeldClaim[]): ListingFreshness {
  let lastVerified: number | null = null;
  for (const claim of current) {
    const observed = new Date(claim.observedAt).getTime();
    if (isVouched(claim.verification) && (lastVerified === null || observed > lastVerified)) lastVerified = observed;
  }
  const factsStaleAfter = current.map((claim) => Math.ceil(staleAfterOf(claim.property, claim.observedAt).getTime() / MINUTE_MS)).sort((a, b) => a - b);
  return { lastVerifiedAt: lastVerified === null ? null : new Date(lastVerified), factsStaleAfter };
}

/** How many of a listing's facts are stale at `at` (to the minute, as the column keeps them). */
export function staleCountAt(factsStaleAfter: readonly number[], at: Date): number {
  const minute = at.getTime() / MINUTE_MS;
  let count = 0;
  for (const staleAfter of factsStaleAfter) if (staleAfter <= minute) count += 1;
  return count;
}

/** USEFUL_LIFE_DAYS as a SQL CASE over claims.property, inlined: the table is ours, its keys plain words. */
function lifeDaysSql() {
  const arms = Object.entries(USEFUL_LIFE_DAYS).map(([property, days]) => {
    if (!/^[a-zA-Z]+$/.test(property) || !Number.isInteger(days)) throw new Error(`USEFUL_LIFE_DAYS: ${property}`);
    return `when '${property}' then ${days}`;
  });
  return sql.raw(`(case c.property ${arms.join(" ")} else ${DEFAULT_LIFE_DAYS} end)`);
}

/**
 * Fills the freshness columns of businesses that have none yet (a database from before they
 * existed), from their current claims, in batches: the same values listingFreshness gives.
 * Idempotent; a business without claims gets an empty list.
 */
export async function backfillListingFreshness(db: Db, batchSize = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with batch as (select id from businesses where facts_stale_after is null limit ${batchSize}),
      -- Per business, through the claims index: a join over the whole claims table would sort every claim.
      held as (
        select b.id, f.last_verified_at, f.facts_stale_after
        from batch b cross join lateral (
          select max(c.observed_at) filter (where c.verification <> 'registry') as last_verified_at,
            coalesce(array_agg(ceil(extract(epoch from c.observed_at + make_interval(days => ${lifeDaysSql()})) / 60)::int order by 1), '{}') as facts_stale_after
          from claims c where c.business_id = b.id and c.superseded_at is null) f)
      update businesses set last_verified_at = held.last_verified_at, facts_stale_after = held.facts_stale_after
      from held where businesses.id = held.id
      returning businesses.id`);
    const updated = rowsOf<{ id: string }>(result).length;
    total += updated;
    if (updated < batchSize) return total;
  }
}
