import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../client";
import { rowsOf } from "../rows";
import { createTestDatabase, type TestDatabase } from "../testing";
import { seedDemoData } from "./index";

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

async function constraintDefinitions(db: Db): Promise<string[]> {
  const result = await db.execute(sql`select t.relname || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid) as definition
    from pg_constraint k join pg_class t on t.oid = k.conrelid
    where t.relnamespace = 'public'::regnamespace order by 1`);
  return rowsOf<{ definition: string }>(result).map((row) => row.definition);
}

describe("seed: load first, then the keys, indexes and foreign keys", () => {
  it("leaves exactly the indexes the migrations create, GIN and secondary btrees included", async () => {
    const expected = await indexDefinitions(migratedOnly.db);
    expect(expected.some((definition) => /business_search_document_idx .* USING gin/.test(definition))).toBe(true);
    expect(expected.some((definition) => /businesses_name_trgm_idx .* USING gin/.test(definition))).toBe(true);
    expect(await indexDefinitions(seeded.db)).toEqual(expected);
  });

  it("leaves exactly the keys and foreign keys the migrations create, and they hold", async () => {
    const expected = await constraintDefinitions(migratedOnly.db);
    expect(expected.some((definition) => /^claims\.claims_business_id_businesses_id_fk FOREIGN KEY/.test(definition))).toBe(true);
    expect(expected.some((definition) => /^businesses\.businesses_pkey PRIMARY KEY/.test(definition))).toBe(true);
    expect(await constraintDefinitions(seeded.db)).toEqual(expected);
    // Restored constraints are enforced again: a claim of no business is refused (23503).
    const refusal = await seeded.db
      .execute(
        sql`insert into claims (business_id, property, value, source, confidence, verification, observed_at)
          select gen_random_uuid(), property, value, source, confidence, verification, observed_at from claims limit 1`,
      )
      .then(
        () => null,
        (error: { cause?: { code?: string } }) => error.cause?.code,
      );
    expect(refusal).toBe("23503");
  });

  it("refuses to load over an existing world, before any key is dropped", async () => {
    const businessCount = async () => rowsOf<{ n: number }>(await seeded.db.execute(sql`select count(*)::int as n from businesses`))[0]?.n;
    const [constraintsBefore, businessesBefore] = [await constraintDefinitions(seeded.db), await businessCount()];
    await expect(seedDemoData(seeded.db, { businesses: 10 })).rejects.toThrow(/empty database/);
    expect(await constraintDefinitions(seeded.db)).toEqual(constraintsBefore);
    expect(await businessCount()).toBe(businessesBefore);
  });
});
