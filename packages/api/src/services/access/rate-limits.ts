import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { rateLimitCounters, type Db } from "@directory/db";

export type RateLimitWindow = "minute" | "hour" | "day" | "month";

export interface RateLimitPolicy {
  /** Named in the RateLimit-Policy header and in 429 bodies. */
  name: string;
  limit: number;
  window: RateLimitWindow;
}

export interface RateLimitSettings {
  /** Anonymous requests per client IP (or IPv6 /64) per UTC day on the v2 routes. Spec: 500. */
  anonymousPerDay: number;
  /** Requests per key per calendar month (UTC), flat, no overage. Spec: 10,000. Also an account's key with a developer plan. */
  keyedPerMonth: number;
  /** Requests per month of a key made on the developer page by an account without a developer plan. */
  trialPerMonth: number;
  /** Sign-in mails per hour: per email address (a mailbox is not flooded) and per client address (nobody mails the world). */
  signInMailsPerAddressPerHour: number;
  signInMailsPerClientPerHour: number;
  /** Anonymous requests per address per minute on the routes the spec leaves open (abuse guard). */
  openPerMinute: number;
  /** Lead submissions per hour: per anonymous address, per key, and per target business per day. */
  leadsPerAddressPerHour: number;
  leadsPerKeyPerHour: number;
  leadsPerBusinessPerDay: number;
  /** Webhook test sends and redeliveries per key per hour: each one makes us POST to the key's receiver. */
  webhookSendsPerKeyPerHour: number;
  /** Corrections submitted per hour: per anonymous address (low: anyone can send one) and per key. */
  correctionsPerAddressPerHour: number;
  correctionsPerKeyPerHour: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  anonymousPerDay: 500,
  keyedPerMonth: 10_000,
  trialPerMonth: 100,
  signInMailsPerAddressPerHour: 5,
  signInMailsPerClientPerHour: 20,
  openPerMinute: 120,
  leadsPerAddressPerHour: 10,
  leadsPerKeyPerHour: 100,
  leadsPerBusinessPerDay: 50,
  webhookSendsPerKeyPerHour: 20,
  correctionsPerAddressPerHour: 10,
  correctionsPerKeyPerHour: 100,
};

export interface RateLimitDecision {
  allowed: boolean;
  policy: RateLimitPolicy;
  remaining: number;
  resetAt: Date;
}

const FIXED_WINDOW_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** Calendar windows in UTC: months are calendar months, the rest fixed slices of the epoch. */
export function windowBounds(window: RateLimitWindow, now: Date): { start: Date; end: Date } {
  if (window === "month") {
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth();
    return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
  }
  const size = FIXED_WINDOW_MS[window];
  const start = Math.floor(now.getTime() / size) * size;
  return { start: new Date(start), end: new Date(start + size) };
}

export interface ConsumeRateLimitParams {
  /** Who is counted: "ip:<bucket>", "key:<id>", "business:<slug>". */
  subject: string;
  policy: RateLimitPolicy;
  /** The moment of the request; now by default. */
  now?: Date;
}

/**
 * The monthly quota of a key: the flat KEY_MONTHLY_LIMIT, or TRIAL_MONTHLY_LIMIT for a key of an
 * account without a developer plan. One policy name for both, so a plan bought mid-month keeps the
 * month's count and only raises its ceiling.
 */
export function keyMonthlyPolicy(limits: RateLimitSettings, onTrial: boolean): RateLimitPolicy {
  return { name: "key-monthly", limit: onTrial ? limits.trialPerMonth : limits.keyedPerMonth, window: "month" };
}

/** The subject a key's monthly quota counts under. */
export function keyQuotaSubject(keyId: string): string {
  return `key:${keyId}`;
}

function bucketOf(policy: Pick<RateLimitPolicy, "name">, subject: string): string {
  return `${policy.name}|${subject}`;
}

/** How many requests each subject has used in the policy's current window (0 for none). */
export async function usedInWindow(db: Db, policy: RateLimitPolicy, subjects: string[], now = new Date()): Promise<Map<string, number>> {
  const used = new Map(subjects.map((subject) => [subject, 0]));
  if (subjects.length === 0) return used;
  const { start } = windowBounds(policy.window, now);
  const rows = await db
    .select({ bucket: rateLimitCounters.bucket, hits: rateLimitCounters.hits })
    .from(rateLimitCounters)
    .where(
      and(
        inArray(
          rateLimitCounters.bucket,
          subjects.map((subject) => bucketOf(policy, subject)),
        ),
        eq(rateLimitCounters.windowStart, start),
      ),
    );
  const subjectOf = new Map(subjects.map((subject) => [bucketOf(policy, subject), subject]));
  for (const row of rows) used.set(subjectOf.get(row.bucket)!, row.hits);
  return used;
}

/**
 * Counts one request of a subject under a policy, atomically: the upsert only increments while the count is
 * below the limit, and PostgreSQL serialises concurrent upserts on the row, so N remaining
 * requests admit exactly N callers however many race. A refused request does not count.
 */
export async function consumeRateLimit(db: Db, params: ConsumeRateLimitParams): Promise<RateLimitDecision> {
  const { subject, policy, now = new Date() } = params;
  const { start, end } = windowBounds(policy.window, now);
  // Each policy counts in its own buckets, even when two windows start at the same instant.
  const bucket = bucketOf(policy, subject);
  const rows = await db
    .insert(rateLimitCounters)
    .values({ bucket, windowStart: start, windowEnd: end, hits: 1 })
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

/**
 * Gives back one request counted by consumeRateLimit with the same subject, policy and moment: a
 * call that was refused or failed after it was counted served nothing. Never below zero.
 */
export async function refundRateLimit(db: Db, params: Required<ConsumeRateLimitParams>): Promise<RateLimitDecision> {
  const { subject, policy, now } = params;
  const { start, end } = windowBounds(policy.window, now);
  const rows = await db
    .update(rateLimitCounters)
    .set({ hits: sql`${rateLimitCounters.hits} - 1` })
    .where(and(eq(rateLimitCounters.bucket, bucketOf(policy, subject)), eq(rateLimitCounters.windowStart, start), gt(rateLimitCounters.hits, 0)))
    .returning({ hits: rateLimitCounters.hits });
  const hits = rows[0]?.hits ?? 0;
  return { allowed: true, policy, remaining: Math.max(0, policy.limit - hits), resetAt: end };
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

/** Deletes the counters of windows that have closed; returns how many went. */
export async function deleteExpiredRateLimitWindows(db: Db, now = new Date()): Promise<number> {
  const deleted = await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowEnd, now)).returning({ bucket: rateLimitCounters.bucket });
  return deleted.length;
}
