import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { categories, citationChecks, citationDailySpend, cities, rowsOf, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import type { CitationEngine } from "./engines";
import { citationQuestion, periodOf, questionLanguageOf } from "./questions";

export type CitationCheck = typeof citationChecks.$inferSelect;

export interface CitationPair {
  categorySlug: string;
  categoryName: string;
  cityId: number;
  cityName: string;
  /** The city's country (ISO 3166-1 alpha-2): its language is the question's, where known (questions.ts). */
  countryCode?: string | null;
}

/** The category and the city of a check, by their slugs; an unknown one is a clear error. */
export async function resolvePair(db: Db, categorySlug: string, citySlug: string): Promise<CitationPair> {
  const [category] = await db.select({ slug: categories.slug, name: categories.name }).from(categories).where(eq(categories.slug, categorySlug));
  if (!category) throw new DomainError("NOT_FOUND", `Unknown category "${categorySlug}"`);
  const [city] = await db.select({ id: cities.id, name: cities.name, countryCode: cities.countryCode }).from(cities).where(eq(cities.slug, citySlug));
  if (!city) throw new DomainError("NOT_FOUND", `Unknown city "${citySlug}"`);
  return { categorySlug: category.slug, categoryName: category.name, cityId: city.id, cityName: city.name, countryCode: city.countryCode };
}

/** Who queued a check: the schedule (or an operator's run), or an owner's recheck (its own key, see the schema). */
export type CheckTrigger = "schedule" | "owner";

/**
 * Queues the period's check of the pair for each engine and returns them (queued now or before:
 * the unique key keeps one per engine, model, pair, question, period and trigger, whoever enqueues it).
 */
export async function enqueueChecks(
  db: Db,
  pair: CitationPair,
  engines: readonly CitationEngine[],
  now: Date,
  trigger: CheckTrigger = "schedule",
): Promise<CitationCheck[]> {
  const period = periodOf(now);
  const query = citationQuestion(pair.categoryName, pair.cityName, period, questionLanguageOf(pair.countryCode));
  const checks: CitationCheck[] = [];
  for (const engine of engines) {
    const key = { engine: engine.name, model: engine.model, categorySlug: pair.categorySlug, cityId: pair.cityId, query, period, trigger };
    await db
      .insert(citationChecks)
      .values({ ...key, nextAttemptAt: now })
      .onConflictDoNothing();
    const [row] = await db
      .select()
      .from(citationChecks)
      .where(
        and(
          eq(citationChecks.engine, key.engine),
          eq(citationChecks.model, key.model),
          eq(citationChecks.categorySlug, key.categorySlug),
          eq(citationChecks.cityId, key.cityId),
          eq(citationChecks.query, key.query),
          eq(citationChecks.period, key.period),
          eq(citationChecks.trigger, key.trigger),
        ),
      );
    checks.push(row!);
  }
  return checks;
}

export type ClaimOutcome = { check: CitationCheck } | { check: null; reason: "none due" | "budget spent" | "engine busy" };

/**
 * Takes one due check of the engine (queued and due, or running past its lease) and spends one call
 * of the day's budget on it, in one transaction: skip-locked, so two workers never take the same
 * check; the budget row is incremented only below the budget, so workers together stay within it.
 * With the budget spent the check stays queued for another day's budget. The engine's calls in
 * flight are bounded across workers: claims of one engine take a transaction-scoped advisory lock
 * keyed on it, then count its checks running under a live lease, and claim nothing at the limit.
 */
export async function claimCheck(
  db: Db,
  params: { engine: CitationEngine; checksPerDay: number; concurrency: number; leaseMs: number; now: Date; onlyIds?: readonly string[] },
): Promise<ClaimOutcome> {
  const { engine, now } = params;
  return db
    .transaction(async (tx) => {
      // Held to commit, so the next claim of this engine counts this one's check as running.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`citation-engine:${engine.name}:${engine.model}`}, 0))`);
      const [inFlight] = rowsOf<{ n: number }>(
        await tx.execute(sql`
        select count(*)::int as n from citation_checks
        where engine = ${engine.name} and model = ${engine.model}
          and status = 'running' and lease_until >= ${now.toISOString()}::timestamptz`),
      );
      if (Number(inFlight?.n ?? 0) >= params.concurrency) return { check: null, reason: "engine busy" as const };
      const only = params.onlyIds ? sql`and id = any(${`{${params.onlyIds.join(",")}}`}::uuid[])` : sql``;
      const [due] = rowsOf<{ id: string }>(
        await tx.execute(sql`
        select id from citation_checks
        where engine = ${engine.name} and model = ${engine.model}
          and ((status = 'queued' and next_attempt_at <= ${now.toISOString()}::timestamptz)
            or (status = 'running' and lease_until < ${now.toISOString()}::timestamptz))
          ${only}
        order by next_attempt_at, id
        limit 1
        for update skip locked`),
      );
      if (!due) return { check: null, reason: "none due" as const };
      const spent = await tx
        .insert(citationDailySpend)
        .values({ day: periodOf(now), calls: 1 })
        .onConflictDoUpdate({
          target: citationDailySpend.day,
          set: { calls: sql`${citationDailySpend.calls} + 1` },
          setWhere: sql`${citationDailySpend.calls} < ${params.checksPerDay}`,
        })
        .returning({ calls: citationDailySpend.calls });
      if (spent.length === 0 || spent[0]!.calls > params.checksPerDay) {
        // The first call of a day inserts 1 whatever the budget: a budget of 0 spends nothing.
        throw new BudgetSpent();
      }
      const [check] = await tx
        .update(citationChecks)
        .set({ status: "running", attempts: sql`${citationChecks.attempts} + 1`, leaseUntil: new Date(now.getTime() + params.leaseMs) })
        .where(eq(citationChecks.id, due.id))
        .returning();
      return { check: check! };
    })
    .catch((error: unknown) => {
      if (error instanceof BudgetSpent) return { check: null, reason: "budget spent" as const };
      throw error;
    });
}

class BudgetSpent extends Error {}

/** Records a failed attempt: queued again after the attempt's wait, or failed for good once the waits are used up. */
export async function recordFailure(
  db: Db,
  check: CitationCheck,
  params: { reason: string; retryAfterMs: number | null; retryDelaysMs: readonly number[]; now: Date },
): Promise<CitationCheck> {
  const wait = params.retryDelaysMs[check.attempts - 1];
  const finalFailure = wait === undefined;
  const delay = Math.max(wait ?? 0, params.retryAfterMs ?? 0);
  const [row] = await db
    .update(citationChecks)
    .set({
      status: finalFailure ? "failed" : "queued",
      failureReason: params.reason,
      failedAt: params.now,
      leaseUntil: null,
      nextAttemptAt: new Date(params.now.getTime() + delay),
    })
    .where(and(eq(citationChecks.id, check.id), eq(citationChecks.status, "running"), eq(citationChecks.attempts, check.attempts)))
    .returning();
  return row ?? check;
}

/** The queue by status, the day's calls against the budget and the last failures (`citations status`). */
export async function citationStatus(db: Db, params: { checksPerDay: number; engines: readonly CitationEngine[]; now: Date }) {
  const byStatus = rowsOf<{ status: string; n: number }>(
    await db.execute(sql`select status, count(*)::int as n from citation_checks group by status order by status`),
  );
  const [spend] = await db
    .select({ calls: citationDailySpend.calls })
    .from(citationDailySpend)
    .where(eq(citationDailySpend.day, periodOf(params.now)));
  const failures = await db
    .select({
      engine: citationChecks.engine,
      model: citationChecks.model,
      query: citationChecks.query,
      status: citationChecks.status,
      attempts: citationChecks.attempts,
      failureReason: citationChecks.failureReason,
      failedAt: citationChecks.failedAt,
      nextAttemptAt: citationChecks.nextAttemptAt,
    })
    .from(citationChecks)
    .where(isNotNull(citationChecks.failedAt))
    .orderBy(desc(citationChecks.failedAt))
    .limit(10);
  return {
    engines: params.engines.map((engine) => `${engine.name}:${engine.model}`),
    queue: Object.fromEntries(["queued", "running", "done", "failed"].map((status) => [status, Number(byStatus.find((row) => row.status === status)?.n ?? 0)])),
    today: { day: periodOf(params.now), calls: spend?.calls ?? 0, budget: params.checksPerDay },
    lastFailures: failures.map((row) => ({
      ...row,
      failedAt: row.failedAt?.toISOString() ?? null,
      nextAttemptAt: row.status === "queued" ? row.nextAttemptAt.toISOString() : null,
    })),
  };
}
