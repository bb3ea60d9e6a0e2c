import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { servableCondition } from "../entities/servable";
import { categorySearchQuery } from "./category-search";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

/** The plan PostgreSQL keeps for a prepared statement once it stops planning per call (one connection: a transaction). */
async function genericPlan(text: string, values: unknown[]): Promise<string> {
  const literals = values.map((value) => (typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`));
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare plan_probe as ${text}`));
    try {
      const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`explain execute plan_probe(${literals.join(", ")})`)));
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      await tx.execute(sql`deallocate plan_probe`);
    }
  });
}

describe("prepared searches keep their partial indexes (issue 11)", () => {
  it("the servable condition binds no parameter: its 'active' is a literal the planner can match to a partial index", () => {
    const { sql: text, params } = new PgDialect().sqlToQuery(servableCondition());
    expect(params).toEqual([]);
    expect(text).toContain(`"status" = 'active'`);
  });

  it.each([
    { scope: "a category + city search", withCity: true, index: "businesses_search_idx" },
    { scope: "a national search (no city)", withCity: false, index: "businesses_category_rank_idx" },
  ])("$scope: its generic plan reads $index in ranking order, with no sort", async ({ withCity, index }) => {
    const { sql: text, params } = new PgDialect().sqlToQuery(categorySearchQuery(withCity));
    const [largest] = rowsOf<{ id: number; category: string }>(
      await database.db.execute(sql`select city_id as id, category_slug as category from businesses group by 1, 2 order by count(*) desc limit 1`),
    );
    const values = params.map((param) => {
      const name = (param as { name?: string }).name;
      return name === "category" ? largest!.category : name === "cityId" ? largest!.id : name === "limit" ? 10 : param;
    });
    const plan = await genericPlan(text, values);
    expect(plan).toContain(index);
    expect(plan).not.toMatch(/\bSort\b/);
  });
});
