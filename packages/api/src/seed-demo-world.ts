import { sql } from "drizzle-orm";
import type { Db } from "@directory/db";
import { seedDemoData, type SeedOptions } from "@directory/db/seed";
import { backfillFeedDocuments } from "./services/feed/feed-documents";
import { seedDemoDocuments } from "./services/graph/demo-documents";

/**
 * The demo world the server's first start, `admin db seed` and the tests write: packages/db's
 * data seed, then the documents, read with the extractor, that the graph, the citation checks
 * and the visibility scores (which order search ties) are derived from. Deterministic: the same
 * options write the same rows.
 */
export async function seedDemoWorld(db: Db, options: SeedOptions = {}): Promise<Awaited<ReturnType<typeof seedDemoData>>> {
  const written = await seedDemoData(db, { ...options, analyze: false });
  // The businesses' statistics now: without them the planner takes a fresh million-row table for a
  // handful of rows, and the feed backfill's keyset batches sort every remaining row each time
  // (quadratic: 20 minutes instead of 1 at a million).
  if (options.analyze ?? true) await db.execute(sql`analyze businesses`);
  await seedDemoDocuments(db, { seed: options.seed });
  // The data seed writes rows directly, not through the write path: the partner feed's documents follow here.
  await backfillFeedDocuments(db);
  // Statistics once, over the documents too (why they matter: seedDemoData).
  if (options.analyze ?? true) await db.execute(sql`analyze`);
  return written;
}
