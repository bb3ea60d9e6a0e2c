import { sql } from "drizzle-orm";
import { perDatabase, rateLimitCounters, type Db } from "@directory/db";
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
  /** An exact call is writing this bucket now: calls meanwhile count in memory, not in the database too. */
  syncing: boolean;
}

const countsByDatabase = perDatabase(() => new Map<string, LocalCount>());

/** Adds calls already admitted in memory to the bucket's row, whatever the limit. */
async function writePending(db: Db, bucket: string, count: LocalCount, pending: number): Promise<void> {
  await db
    .insert(rateLimitCounters)
    .values({ bucket, windowStart: new Date(count.windowStart), windowEnd: new Date(count.windowEnd), hits: pending })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + ${pending}` },
    });
}

/**
 * consumeRateLimit for fail-open policies, counted in memory between exact calls. One call at a
 * time syncs a bucket: when every call of a busy address arriving during a sync took the exact
 * path too, they queued on the bucket's one row lock (10 connections of radius searches: p50 65 ms
 * with PostgreSQL and the server mostly idle, waiting on each other's upserts).
 */
export async function consumeBufferedRateLimit(db: Db, params: ConsumeRateLimitParams): Promise<RateLimitDecision> {
  const { subject, policy, now = new Date() } = params;
  const counts = countsByDatabase.get(db);
  const bucket = `${policy.name}|${subject}`;
  const { start, end } = windowBounds(policy.window, now);
  const found = counts.get(bucket);
  // A closed window's count is the database's; what was not written of it no longer matters.
  const local = found?.windowStart === start.getTime() ? found : undefined;
  if (found && !local) counts.delete(bucket);
  const fresh = local && (local.syncing || now.getTime() - local.syncedAt < SYNC_INTERVAL_MS);
  if (local && fresh && local.synced + local.pending + 1 <= policy.limit * LOCAL_SHARE) {
    local.pending += 1;
    return { allowed: true, policy, remaining: policy.limit - local.synced - local.pending, resetAt: end };
  }
  if (local) return syncBucket(db, bucket, local, { subject, policy, now });

  const decision = await consumeRateLimit(db, { subject, policy, now });
  if (counts.size >= MAX_BUCKETS) forgetWritten(counts, now.getTime());
  if (counts.size < MAX_BUCKETS && !counts.has(bucket)) {
    counts.set(bucket, {
      windowStart: start.getTime(),
      windowEnd: end.getTime(),
      synced: policy.limit - decision.remaining,
      pending: 0,
      syncedAt: now.getTime(),
      syncing: false,
    });
  }
  return decision;
}

/** The exact call of a bucket held here: the calls counted since are written, then this one is counted exactly. */
async function syncBucket(db: Db, bucket: string, local: LocalCount, params: ConsumeRateLimitParams & { now: Date }): Promise<RateLimitDecision> {
  const written = local.pending;
  local.pending = 0;
  local.syncing = true;
  try {
    if (written > 0) await writePending(db, bucket, local, written);
    const decision = await consumeRateLimit(db, params);
    local.synced = params.policy.limit - decision.remaining;
    local.syncedAt = params.now.getTime();
    return decision;
  } catch (error) {
    // The bucket is forgotten, as before syncs were held here: its unwritten calls are lost, never counted twice.
    countsByDatabase.get(db).delete(bucket);
    throw error;
  } finally {
    local.syncing = false;
  }
}

/** Frees room: buckets with nothing unwritten, and those whose window has closed. */
function forgetWritten(counts: Map<string, LocalCount>, now: number): void {
  for (const [bucket, count] of counts) if (count.pending === 0 || count.windowEnd <= now) counts.delete(bucket);
}
