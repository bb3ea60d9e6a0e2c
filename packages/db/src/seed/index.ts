import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { categories } from "../schema/categories";
import { planAllocation } from "./allocation";
import { claimCount, generateBatch } from "./batch";
import { BatchQueue } from "./batch-queue";
import { CATEGORIES } from "./categories";
import { loadDemoCities } from "./cities";
import { deferForBulkLoad, restoreAfterBulkLoad } from "./deferred-ddl";
import { insertBatch } from "./insert";
import { insertReferenceData } from "./reference-data";
import { SlugRegistry, assertDigitFree } from "./slugs";
import { kebab } from "./text";

// The building blocks a seed step above packages/db (the demo documents, in packages/api) writes with.
export { CATEGORIES } from "./categories";
export { insertAsJson } from "./insert";
export { createRng, type Rng } from "./random";
export { kebab } from "./text";
export { insertMissingCategories } from "./reference-data";
export type { JsonRow } from "./rows";
export { DAY_SECONDS, DEMO_EPOCH_MS } from "./time";

const DEMO_BUSINESS_COUNT = 10_000;

export interface SeedOptions {
  /** How many businesses to generate; default DEMO_BUSINESS_COUNT. */
  businesses?: number;
  /** Same seed, same world: every id, slug and timestamp is derived from it. Default 42. */
  seed?: number;
  /** Businesses per transaction; default 1,000. */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * Refresh the planner's statistics at the end; default true. False for a caller that writes
   * more rows next (the demo documents) and analyzes once after them.
   */
  analyze?: boolean;
}

export const DEFAULT_SEED = 42;
const DEFAULT_BATCH_SIZE = 1_000;
/**
 * Batch transactions that may run at once. On PostgreSQL the next batch is generated while the
 * server stores earlier ones on other connections (3 was ~10% faster than 2 on 100k businesses);
 * PGlite has one connection and runs them in turn.
 */
const BATCHES_IN_FLIGHT = 3;

/** True when the categories table has no row: the world was never seeded. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const rows = await db.select({ slug: categories.slug }).from(categories).limit(1);
  return rows.length === 0;
}

/**
 * Writes the deterministic demo world's data (reference data, businesses, claims, offers,
 * questions; not the documents, which need the extractor) into an empty, migrated database.
 * Businesses are generated and inserted batch by batch, so memory stays flat however many are
 * requested.
 */
export async function seedDemoData(db: Db, options: SeedOptions = {}): Promise<{ businesses: number; claims: number; cities: number; categories: number }> {
  const total = options.businesses ?? DEMO_BUSINESS_COUNT;
  const seed = options.seed ?? DEFAULT_SEED;
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);

  // The load runs without keys (deferForBulkLoad): rows loaded over an existing world would not
  // fail, they would duplicate it and leave keys that cannot be put back.
  if (!(await isDatabaseEmpty(db))) throw new Error("seed: the database already holds a world; the demo world is written only into an empty database");
  const demoCities = loadDemoCities();
  for (const city of demoCities) assertDigitFree(kebab(city.name));
  await insertReferenceData(db, seed, demoCities);

  const world = {
    seed,
    allocation: planAllocation(demoCities, CATEGORIES, total),
    slugs: new SlugRegistry(),
  };
  let claims = 0;
  // Load first, then build the keys, indexes and foreign keys once over the loaded rows.
  const deferred = await deferForBulkLoad(db);
  const pending = new BatchQueue(BATCHES_IN_FLIGHT);
  try {
    for (let start = 0; start < total; start += batchSize) {
      const end = Math.min(total, start + batchSize);
      const rows = generateBatch(world, start, end);
      const claimsInBatch = claimCount(rows);
      await pending.add(insertBatch(db, rows), () => {
        claims += claimsInBatch;
        options.onProgress?.(end, total);
      });
    }
    await pending.drain();
  } catch (error) {
    // The load's own error is the one to report: let what is in flight settle, put back each
    // constraint and index that still can be (a half-loaded world may break one), then rethrow.
    await pending.drain().catch(() => undefined);
    for (const item of deferred) await restoreAfterBulkLoad(db, [item]).catch(() => undefined);
    throw error;
  }
  await restoreAfterBulkLoad(db, deferred);
  // Fresh statistics, or the planner guesses a handful of rows and walks a whole index (the 1M
  // partner feed's first page took over 3 s before, 3 ms after).
  if (options.analyze ?? true) await db.execute(sql`analyze`);
  return { businesses: total, claims, cities: demoCities.length, categories: CATEGORIES.length };
}
