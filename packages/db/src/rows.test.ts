import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./client";
import { executePrepared, preparedQuery } from "./rows";
import { createTestDatabase } from "./testing";

describe("executePrepared", () => {
  it("returns the raw rows of queries of several shapes and parameters, on either driver", async () => {
    const database = await createTestDatabase({ seed: false });
    try {
      for (const n of [1, 2, 3]) expect(await executePrepared<{ n: number }>(database.db, sql`select ${n}::int + 1 as n`)).toEqual([{ n: n + 1 }]);
      expect(await executePrepared(database.db, sql`select ${"a"}::text as s, string_to_array(${"x,y"}, ',') as t`)).toEqual([{ s: "a", t: ["x", "y"] }]);
    } finally {
      await database.destroy();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)("prepares each query text once per PostgreSQL connection and reuses it", async () => {
    const database = await createTestDatabase({ seed: false });
    const oneConnection = await createDatabase({ url: database.url!, maxConnections: 1 });
    try {
      for (const i of [1, 2, 3]) expect(await executePrepared(oneConnection.db, sql`select ${i}::int as prepared_probe`)).toEqual([{ prepared_probe: i }]);
      const statements = await executePrepared<{ statement: string }>(oneConnection.db, sql`select statement from pg_prepared_statements`);
      expect(statements.filter((row) => row.statement.includes("prepared_probe"))).toHaveLength(1);
    } finally {
      await oneConnection.close();
      await database.destroy();
    }
  });
});

describe("preparedQuery", () => {
  const doubled = preparedQuery<{ n: number; label: string }>(sql`select ${sql.placeholder("n")}::int * 2 as n, ${sql.placeholder("label")}::text as label`);

  it("fills its placeholders on each call and returns raw rows, on either driver and per database handle", async () => {
    const first = await createTestDatabase({ seed: false });
    const second = await createTestDatabase({ seed: false });
    try {
      expect(await doubled(first.db, { n: 2, label: "a" })).toEqual([{ n: 4, label: "a" }]);
      expect(await doubled(first.db, { n: 5, label: "b" })).toEqual([{ n: 10, label: "b" }]);
      expect(await doubled(second.db, { n: 7, label: "c" })).toEqual([{ n: 14, label: "c" }]);
    } finally {
      await first.destroy();
      await second.destroy();
    }
  });
});
