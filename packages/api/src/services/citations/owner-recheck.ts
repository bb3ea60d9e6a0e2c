import { eq } from "drizzle-orm";
import { businesses, categories, cities, type Db } from "@directory/db";
import { DomainError } from "../../errors";
import { enqueueChecks, type CitationPair } from "./check-queue";
import type { CitationEngine } from "./engines";
import { periodOf } from "./questions";

/** What every owner answer about citations says when no engine is configured (and the dashboard shows). */
export const NO_ENGINE_NOTE =
  "No AI engine is configured on this service (CITATION_ENGINES is empty), so it runs no checks of its own: " +
  "the checks shown come from AI answers an operator ingested.";

/** Which engines this service asks, as owner.citations and owner.visibility state it. */
export function citationEnginesStatus(engines: readonly CitationEngine[]) {
  const names = engines.map((engine) => `${engine.name}:${engine.model}`);
  return {
    configured: names.length > 0,
    names,
    note: names.length > 0 ? `This service asks ${names.join(", ")} each day (see method).` : NO_ENGINE_NOTE,
  };
}

/** The next UTC midnight: when a business that asked for a recheck today may ask again. */
export function nextRecheckAt(now: Date): Date {
  return new Date(Date.parse(`${periodOf(now)}T00:00:00Z`) + 86_400_000);
}

async function pairOf(db: Db, businessId: string): Promise<{ business: { slug: string; name: string }; pair: CitationPair }> {
  const [row] = await db
    .select({
      slug: businesses.slug,
      name: businesses.name,
      categorySlug: categories.slug,
      categoryName: categories.name,
      cityId: cities.id,
      cityName: cities.name,
      countryCode: cities.countryCode,
    })
    .from(businesses)
    .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(eq(businesses.id, businessId));
  if (!row) throw new DomainError("NOT_FOUND", "The business no longer exists");
  const { slug, name, ...pair } = row;
  return { business: { slug, name }, pair };
}

/**
 * Queues today's owner recheck of the business's own category and city, one check per engine, for
 * the worker to run (no engine is called in the request). The once-a-day limit and the configured
 * engines are the procedure builder's (procedures/builders.ts). Checks of the pair another business
 * asked for today are the same checks: they are returned as they stand.
 */
export async function requestOwnRecheck(db: Db, params: { businessId: string; engines: readonly CitationEngine[]; now: Date }) {
  const { business, pair } = await pairOf(db, params.businessId);
  const checks = await enqueueChecks(db, pair, params.engines, params.now, "owner");
  return {
    business,
    requestedAt: params.now.toISOString(),
    nextRecheckAt: nextRecheckAt(params.now).toISOString(),
    checks: checks.map((check) => ({
      engine: check.engine,
      model: check.model,
      query: check.query,
      status: check.status as "queued" | "running" | "done" | "failed",
      checkedAt: check.checkedAt?.toISOString() ?? null,
    })),
  };
}
