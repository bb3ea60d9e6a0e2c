import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, rowsOf } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { feedVisibleCondition } from "./feed-documents";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

/** The plan of a query with scans of the whole table ruled out: what an index alone can answer. */
async function indexPlan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql: text, params } = query.toSQL();
  const literal = (value: unknown) => (typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`);
  const inlined = text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_bitmapscan = off`);
    const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`explain ${inlined}`)));
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

/** What partner-feed.ts reads: verified, active, unexpired businesses. */
const feedCondition = feedVisibleCondition();

describe("the partner feed reads its index alone (migration 0026)", () => {
  it("counts a traversal's locations with an index-only scan of businesses_feed_idx", async () => {
    const plan = await indexPlan(database.db.select({ n: count() }).from(businesses).where(feedCondition));
    expect(plan).toContain("Index Only Scan using businesses_feed_idx");
  });

  it("chooses a page's rows in (updated_at, id) order with an index-only scan, no sort", async () => {
    const plan = await indexPlan(
      database.db
        .select({ id: businesses.id, updatedAt: businesses.updatedAt })
        .from(businesses)
        .where(feedCondition)
        .orderBy(businesses.updatedAt, businesses.id)
        .limit(501),
    );
    expect(plan).toContain("Index Only Scan using businesses_feed_idx");
    expect(plan).not.toMatch(/\bSort\b/);
  });
});
