import { sql } from "drizzle-orm";
import { rateLimitCounters, type Db } from "@directory/db";
import { consumeRateLimit, windowBounds, type ConsumeRateLimitParams, type RateLimitDecision } from "./rate-limits";

/**
 * Fail-open (anonymous) limits need not cost a database write per request. A bucket's first call
 * after a pause goes through the exact upsert of consumeRateLimit; calls within SYNC_INTERVAL_MS
 * of it are counted in memory while the bucket stays under LOCAL_SHARE of its limit, and written
 * with the next exact call. So a busy address costs about four writes a second, not one a call.
 * What this gives up, acceptable for a fail-open abuse guard:
 * - instances sharing the database see each other's in-memory calls late, so together they may
 *   admit more than the limit by what each admits within one interval;
 * - calls counted in memory and not yet written are lost if the process dies.
 * Quotas and lead limits (fail closed) always take the exact path.
 */
const SYNC_INTERVAL_MS = 250;
const LOCAL_SHARE = 0.9;
/** Buckets held per database; past this, new buckets take the exact path (memory stays bounded). */
const MAX_BUCKETS = 50_000;

interface LocalCount {
  windowStart: number;
  windowEnd: number;
  /** Hits in the database after the last exact call. */
  synced: number;
  /** Calls admitted here since, not yet written. */
  pending: number;
  syncedAt: number;
}

const countsByDatabase = new WeakMap<Db, Map<string, LocalCount>>();

function countsOf(db: Db): Map<string, LocalCount> {
  let counts = countsByDatabase.get(db);
  if (!counts) countsByDatabase.set(db, (counts = new Map()));
  return counts;
}

/** Adds calls already admitted in memory to the bucket's row, whatever the limit. */
async function writePending(db: Db, bucket: string, count: LocalCount): Promise<void> {
  await db
    .insert(rateLimitCounters)
    .values({ bucket, windowStart: new Date(count.windowStart), windowEnd: new Date(count.windowEnd), hits: count.pending })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + ${count.pending}` },
    });
}

/** consumeRateLimit for fail-open policies, counted in memory between exact calls. */
export async function consumeBufferedRateLimit(db: Db, params: ConsumeRateLimitParams): Promise<RateLimitDecision> {
  const { subject, policy, now = new Date() } = params;
  const counts = countsOf(db);
  const bucket = `${policy.name}|${subject}`;
  const { start, end } = windowBounds(policy.window, now);
  const local = counts.get(bucket);
  const sameWindow = local?.windowStart === start.getTime();
  if (sameWindow && now.getTime() - local.syncedAt < SYNC_INTERVAL_MS && local.synced + local.pending + 1 <= policy.limit * LOCAL_SHARE) {
    local.pending += 1;
    return { allowed: true, policy, remaining: policy.limit - local.synced - local.pending, resetAt: end };
  }

  counts.delete(bucket);
  if (sameWindow && local.pending > 0) await writePending(db, bucket, local);
  const decision = await consumeRateLimit(db, { subject, policy, now });
  if (counts.size >= MAX_BUCKETS) forgetWritten(counts, now.getTime());
  if (counts.size < MAX_BUCKETS) {
    counts.set(bucket, {
      windowStart: start.getTime(),
      windowEnd: end.getTime(),
      synced: policy.limit - decision.remaining,
      pending: 0,
      syncedAt: now.getTime(),
    });
  }
  return decision;
}

/** Frees room: buckets with nothing unwritten, and those whose window has closed. */
function forgetWritten(counts: Map<string, LocalCount>, now: number): void {
  for (const [bucket, count] of counts) if (count.pending === 0 || count.windowEnd <= now) counts.delete(bucket);
}
