import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../client";
import { rowsOf } from "../rows";
import { createTestDatabase, type TestDatabase } from "../testing";

let seeded: TestDatabase;
let migratedOnly: TestDatabase;

beforeAll(async () => {
  seeded = await createTestDatabase({ seed: { businesses: 300 } });
  migratedOnly = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await seeded?.destroy();
  await migratedOnly?.destroy();
});

async function indexDefinitions(db: Db): Promise<string[]> {
  const result = await db.execute(sql`select indexdef from pg_indexes where schemaname = 'public' order by indexname`);
  return rowsOf<{ indexdef: string }>(result).map((row) => row.indexdef);
}

describe("seed: load first, then the secondary indexes", () => {
  it("leaves exactly the indexes the migrations create, GIN and secondary btrees included", async () => {
    const expected = await indexDefinitions(migratedOnly.db);
    expect(expected.some((definition) => /business_search_document_idx .* USING gin/.test(definition))).toBe(true);
    expect(expected.some((definition) => /businesses_name_trgm_idx .* USING gin/.test(definition))).toBe(true);
    expect(await indexDefinitions(seeded.db)).toEqual(expected);
  });
});
