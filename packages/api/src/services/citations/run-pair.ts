import { asc, eq } from "drizzle-orm";
import { businesses, documentMentions, type Db } from "@directory/db";
import { enqueueChecks, resolvePair } from "./check-queue";
import type { CitationSettings } from "./env";
import { runDueChecks } from "./run-checks";

export interface CitationRunRequest {
  category: string;
  city: string;
  /** An engine's name ("compatible") or name:model; default: every configured engine. */
  engine?: string;
}

function engineName(engine: { name: string; model: string }): string {
  return `${engine.name}:${engine.model}`;
}

/**
 * Queues the day's check of the pair for each chosen engine and runs the ones due now: one
 * question a day per engine and pair, so running again the same day reports the check already made
 * (`admin citations run`).
 */
export async function runCitationCheck(db: Db, settings: CitationSettings, request: CitationRunRequest, now: () => Date = () => new Date()) {
  if (settings.engines.length === 0) throw new Error("no citation engine is configured: set CITATION_ENGINES (see docs/citation-checks.md)");
  const engines = request.engine
    ? settings.engines.filter((engine) => engine.name === request.engine || engineName(engine) === request.engine)
    : settings.engines;
  if (engines.length === 0) throw new Error(`no configured engine is named "${request.engine}" (configured: ${settings.engines.map(engineName).join(", ")})`);
  const pair = await resolvePair(db, request.category, request.city);
  const queued = await enqueueChecks(db, pair, engines, now());
  const run = await runDueChecks(db, { settings, engines, onlyIds: queued.map((check) => check.id), now });
  const latest = new Map([...queued, ...run.checks].map((check) => [check.id, check]));
  const checks = [];
  for (const check of latest.values()) {
    const mentions = check.documentId
      ? await db
          .select({ name: businesses.name, slug: businesses.slug, position: documentMentions.position })
          .from(documentMentions)
          .innerJoin(businesses, eq(businesses.id, documentMentions.businessId))
          .where(eq(documentMentions.documentId, check.documentId))
          .orderBy(asc(documentMentions.position))
      : [];
    checks.push({
      engine: check.engine,
      model: check.model,
      query: check.query,
      status: check.status,
      attempts: check.attempts,
      failureReason: check.failureReason,
      nextAttemptAt: check.status === "queued" ? check.nextAttemptAt.toISOString() : null,
      checkedAt: check.checkedAt?.toISOString() ?? null,
      documentId: check.documentId,
      mentions,
    });
  }
  return { category: pair.categorySlug, city: request.city, budgetSpent: run.budgetSpent, engineBusy: run.engineBusy, checks };
}
