import { sql } from "drizzle-orm";
import { rateLimitCounters, type Db } from "@directory/db";

export type RateLimitWindow = "day" | "month";

export interface RateLimitPolicy {
  /** Named in the RateLimit-Policy header and in 429 bodies. */
  name: string;
  limit: number;
  window: RateLimitWindow;
}

export interface RateLimitSettings {
  /** Anonymous requests per client IP (or IPv6 /64) per UTC day on the v2 routes. Spec: 500. */
  anonymousPerDay: number;
  /** Requests per key per calendar month (UTC), flat, no overage. Spec: 10,000. */
  keyedPerMonth: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = { anonymousPerDay: 500, keyedPerMonth: 10_000 };

export interface RateLimitDecision {
  allowed: boolean;
  policy: RateLimitPolicy;
  remaining: number;
  resetAt: Date;
}

export function windowBounds(window: RateLimitWindow, now: Date): { start: Date; end: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  if (window === "month") return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
  const d = now.getUTCDate();
  return { start: new Date(Date.UTC(y, m, d)), end: new Date(Date.UTC(y, m, d + 1)) };
}

/**
 * Counts one request against a bucket, atomically: the upsert only increments while the count is
 * below the limit, and PostgreSQL serialises concurrent upserts on the row, so N remaining
 * requests admit exactly N callers however many race. A refused request does not count.
 */
export async function consumeRateLimit(db: Db, bucket: string, policy: RateLimitPolicy, now = new Date()): Promise<RateLimitDecision> {
  const { start, end } = windowBounds(policy.window, now);
  const rows = await db
    .insert(rateLimitCounters)
    .values({ bucket, windowStart: start, hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { hits: sql`${rateLimitCounters.hits} + 1` },
      setWhere: sql`${rateLimitCounters.hits} < ${policy.limit}`,
    })
    .returning({ hits: rateLimitCounters.hits });
  const hits = rows[0]?.hits;
  if (hits === undefined || hits > policy.limit) return { allowed: false, policy, remaining: 0, resetAt: end };
  return { allowed: true, policy, remaining: policy.limit - hits, resetAt: end };
}

/** IETF RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers), plus Retry-After on refusal. */
export function rateLimitHeaders(decision: RateLimitDecision, now = new Date()): Record<string, string> {
  const { policy, remaining, resetAt } = decision;
  const resetSeconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  const windowSeconds = Math.round((resetAt.getTime() - windowBounds(policy.window, now).start.getTime()) / 1000);
  const headers: Record<string, string> = {
    "RateLimit-Policy": `"${policy.name}";q=${policy.limit};w=${windowSeconds}`,
    RateLimit: `"${policy.name}";r=${remaining};t=${resetSeconds}`,
  };
  if (!decision.allowed) headers["Retry-After"] = String(resetSeconds);
  return headers;
}
