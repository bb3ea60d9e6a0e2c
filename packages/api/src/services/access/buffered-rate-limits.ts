import { sql } from "drizzle-orm";
import { perDatabase, rateLimitCounters, type Db } from "@directory/db";
import { consumeRateLimit, windowBounds, type ConsumeRateLimitParams, type RateLimitDecision, type RateLimitPolicy } from "./rate-limits";

/**
 * Fail-open (anonymous) limits need not cost a database write per request. An instance counts a
 * block of calls in the database first (a lease: LEASE_SHARE of the limit) and then admits that
 * many from memory. Every admitted call was counted before it was admitted, so however many
 * instances share the database and however their calls race, together they never admit more than
 * the limit, and a failed write loses no count (it either counted the whole block or nothing).
 * What this gives up: calls leased and not yet admitted are lost if the process dies, and an
 * address that keeps to one instance may be refused while another instance still holds leased calls
 * of its bucket (at most one block per instance; leases are only taken while a whole block fits,
 * the last calls of a limit are counted one by one). Quotas and lead limits (fail closed) always
 * take the exact path.
 */
const LEASE_SHARE = 0.05;
/** Buckets held per database; past this, new buckets take the exact path (memory stays bounded). */
const MAX_BUCKETS = 50_000;

interface Lease {
  windowStart: number;
  windowEnd: number;
  /** Calls counted in the database by this instance and not yet admitted. */
  left: number;
  /** The bucket's count in the database after this instance's last write. */
  counted: number;
  /**
   * The one database write this instance makes for the bucket at a time; calls arriving meanwhile
   * wait for it instead of queueing on the row's lock. Resolves true when it found the limit used up.
   */
  refilling?: Promise<boolean>;
}

const leasesByDatabase = perDatabase(() => new Map<string, Lease>());

/** The size of one lease; 1 means every call is counted exactly. */
function leaseSize(limit: number): number {
  return Math.max(1, Math.floor(limit * LEASE_SHARE));
}

/** consumeRateLimit for fail-open policies, admitting from calls counted ahead in blocks. */
export async function consumeBufferedRateLimit(db: Db, params: ConsumeRateLimitParams): Promise<RateLimitDecision> {
  const { subject, policy, now = new Date() } = params;
  const bucket = `${policy.name}|${subject}`;
  const { start, end } = windowBounds(policy.window, now);
  const lease = leaseOf(db, bucket, start.getTime(), end.getTime(), now.getTime());
  if (!lease) return consumeRateLimit(db, { subject, policy, now });
  for (;;) {
    if (lease.left > 0) {
      lease.left -= 1;
      return { allowed: true, policy, remaining: policy.limit - lease.counted + lease.left, resetAt: end };
    }
    // Refused when the write under way found the limit used up: it cannot come back this window.
    if (lease.refilling) {
      if (await lease.refilling) return { allowed: false, policy, remaining: 0, resetAt: end };
      continue;
    }
    const decision = await refill(db, bucket, lease, { subject, policy, now });
    if (decision) return decision;
  }
}

/** This instance's lease of a bucket in the current window, made when missing (unless memory is full). */
function leaseOf(db: Db, bucket: string, windowStart: number, windowEnd: number, now: number): Lease | undefined {
  const leases = leasesByDatabase.get(db);
  const found = leases.get(bucket);
  if (found?.windowStart === windowStart) return found;
  // A closed window's unadmitted calls no longer matter.
  if (found) leases.delete(bucket);
  if (leases.size >= MAX_BUCKETS) forgetIdle(leases, now);
  if (leases.size >= MAX_BUCKETS) return undefined;
  const lease: Lease = { windowStart, windowEnd, left: 0, counted: 0 };
  leases.set(bucket, lease);
  return lease;
}

/**
 * Counts a block ahead when a whole one still fits under the limit (the caller then admits from
 * it, returning undefined); else counts this one call exactly and returns its decision.
 */
function refill(db: Db, bucket: string, lease: Lease, params: ConsumeRateLimitParams & { now: Date }): Promise<RateLimitDecision | undefined> {
  const write = (async () => {
    const block = leaseSize(params.policy.limit);
    const counted = block > 1 ? await countBlock(db, bucket, lease, block, params.policy) : undefined;
    if (counted !== undefined) {
      lease.left += block;
      lease.counted = counted;
      return undefined;
    }
    const decision = await consumeRateLimit(db, params);
    lease.counted = params.policy.limit - decision.remaining;
    return decision;
  })().finally(() => {
    lease.refilling = undefined;
  });
  lease.refilling = write.then((decision) => decision?.allowed === false);
  // Waiters see a failed write as theirs (and fail open); with no waiter, nothing is left unhandled.
  lease.refilling.catch(() => undefined);
  return write;
}

/** Adds a whole block to the bucket's count if it fits under the limit; returns the new count, or undefined. */
async function countBlock(db: Db, bucket: string, lease: Lease, block: number, policy: RateLimitPolicy): Promise<number | undefined> {
  const rows = await db
    .insert(rateLimitCounters)
    .values({ bucket, windowStart: new Date(lease.windowStart), windowEnd: new Date(lease.windowEnd), hits: block })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + ${block}` },
      setWhere: sql`${rateLimitCounters.hits} + ${block} <= ${policy.limit}`,
    })
    .returning({ hits: rateLimitCounters.hits });
  return rows[0]?.hits;
}

/** Frees room: leases with nothing left to admit and no write under way, and those whose window has closed. */
function forgetIdle(leases: Map<string, Lease>, now: number): void {
  for (const [bucket, lease] of leases) if ((lease.left === 0 && !lease.refilling) || lease.windowEnd <= now) leases.delete(bucket);
}
