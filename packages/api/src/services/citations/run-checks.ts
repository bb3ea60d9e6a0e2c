import { and, eq } from "drizzle-orm";
import { citationChecks, type Db } from "@directory/db";
import { invalidateGraphStatistics } from "../graph/graph-statistics";
import { contentHash, storeDocuments, type IncomingDocument } from "../graph/ingest";
import { askEngine, EngineCallError, type CitationEngine } from "./engines";
import { claimCheck, recordFailure, type CitationCheck } from "./check-queue";
import type { CitationSettings } from "./env";
import { languageOfQuestion } from "./questions";

/** How long past the call's timeout a claimed check waits before another worker may take it (its runner died). */
const LEASE_MARGIN_MS = 60_000;
/** The lease when calls have no timeout. */
const UNBOUNDED_CALL_LEASE_MS = 15 * 60_000;

export interface RunDueChecksParams {
  settings: CitationSettings;
  /** Only these engines (default: all configured). */
  engines?: readonly CitationEngine[];
  /** Only these checks (`citations run` runs the ones it queued). */
  onlyIds?: readonly string[];
  now?: () => Date;
}

export interface RunDueChecksResult {
  /** Checks this call attempted, as they ended. */
  checks: CitationCheck[];
  /** True when a check was left queued because the day's budget was spent. */
  budgetSpent: boolean;
  /** True when a check was left queued because the engine's calls were all in flight (CITATION_CONCURRENCY, across workers). */
  engineBusy: boolean;
}

class LeaseLost extends Error {}

/**
 * Runs the due checks: per engine, up to `concurrency` calls at once across every worker (the
 * claim counts the engine's checks running under a live lease), each check claimed (and a call of
 * the day's budget spent) before its call. An answer is stored as an ai_answer document
 * through the graph's ingestion, in the transaction that marks the check done; a failure is
 * recorded with its reason and the check queued again after its wait, or failed once out of attempts.
 */
export async function runDueChecks(db: Db, params: RunDueChecksParams): Promise<RunDueChecksResult> {
  const { settings } = params;
  const now = params.now ?? (() => new Date());
  const leaseMs = settings.timeoutMs > 0 ? settings.timeoutMs + LEASE_MARGIN_MS : UNBOUNDED_CALL_LEASE_MS;
  const result: RunDueChecksResult = { checks: [], budgetSpent: false, engineBusy: false };
  const runEngine = async (engine: CitationEngine) => {
    for (;;) {
      const claim = await claimCheck(db, {
        engine,
        checksPerDay: settings.checksPerDay,
        concurrency: settings.concurrency,
        leaseMs,
        now: now(),
        onlyIds: params.onlyIds,
      });
      // "engine busy": the engine's calls are in flight in other workers, which go on taking its checks.
      if (!claim.check) {
        if (claim.reason === "budget spent") result.budgetSpent = true;
        if (claim.reason === "engine busy") result.engineBusy = true;
        return;
      }
      result.checks.push(await performCheck(db, engine, claim.check, settings, now));
    }
  };
  const engines = params.engines ?? settings.engines;
  await Promise.all(engines.flatMap((engine) => Array.from({ length: settings.concurrency }, () => runEngine(engine))));
  return result;
}

async function performCheck(db: Db, engine: CitationEngine, check: CitationCheck, settings: CitationSettings, now: () => Date): Promise<CitationCheck> {
  try {
    const answer = await askEngine(engine, check.query, { apiKey: settings.apiKeys[engine.provider], timeoutMs: settings.timeoutMs });
    const checkedAt = now();
    const document: IncomingDocument = {
      kind: "ai_answer",
      source: `citation-check:${engine.name}`,
      engine: engine.name,
      model: answer.model,
      query: check.query,
      fetchedAt: checkedAt,
      language: languageOfQuestion(check.query),
      cityId: check.cityId,
      categorySlug: check.categorySlug,
      body: answer.text,
      sources: answer.sources,
    };
    const done = await db.transaction(async (tx) => {
      const stored = await storeDocuments(tx, { batch: [document] });
      const documentId = stored.storedIds.get(contentHash(document));
      const [row] = await tx
        .update(citationChecks)
        .set({ status: "done", checkedAt, documentId, leaseUntil: null })
        .where(and(eq(citationChecks.id, check.id), eq(citationChecks.status, "running"), eq(citationChecks.attempts, check.attempts)))
        .returning();
      // Another worker took the check over after this one's lease ended: its answer counts, not this one.
      if (!row) throw new LeaseLost();
      return row;
    });
    invalidateGraphStatistics(db);
    return done;
  } catch (error) {
    if (error instanceof LeaseLost) return check;
    const reason = error instanceof Error ? (error instanceof EngineCallError ? error.message : `${error.name}: ${error.message}`) : String(error);
    return recordFailure(db, check, {
      reason: reason.slice(0, 500),
      retryAfterMs: error instanceof EngineCallError ? error.retryAfterMs : null,
      retryDelaysMs: settings.retryDelaysMs,
      now: now(),
    });
  }
}
