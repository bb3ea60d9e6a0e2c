import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cities, documents, rowsOf } from "@directory/db";
import { GRAPH_STATISTICS_HARD_MAX_AGE_MS, GRAPH_STATISTICS_MAX_AGE_MS, invalidateGraphStatistics } from "../../services/graph/graph-statistics";
import { ingestDocuments } from "../../services/graph/ingest";
import { anonymousCaller } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;

beforeAll(async () => {
  database = await createTestDatabase();
  caller = anonymousCaller(database.db);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await database?.destroy();
});

describe("knowledge graph statistics (GET /api/v2/knowledge-graph)", () => {
  it("holds the statistics for a minute, serves them while it recounts in the background up to five minutes, then waits; an ingest batch recounts at once", async () => {
    const stats = async () => {
      const answer = await caller.graph.getKnowledgeGraph({});
      if (answer.type !== "stats") throw new Error("wrong shape");
      return answer;
    };
    const documentsInSql = async () => Number(rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from documents`))[0]!.n);
    invalidateGraphStatistics(database.db);
    const first = await stats();
    expect(first.documents).toBe(await documentsInSql());
    expect(Date.parse(first.countedAt)).toBeLessThanOrEqual(Date.now());

    // A document written behind the holder's back (as another process's ingest would be).
    const [city] = await database.db.select({ id: cities.id }).from(cities).limit(1);
    await database.db.insert(documents).values({
      kind: "article",
      source: "test:held-statistics",
      engine: null,
      query: null,
      fetchedAt: new Date("2026-11-02T10:00:00Z"),
      language: "en",
      cityId: city!.id,
      categorySlug: null,
      body: "A document naming no business at all.",
      contentHash: "test-held-statistics-1",
    });
    const held = await stats();
    expect(held).toEqual(first);

    // Past a minute: the held counts answer at once, and a recount starts; the next answer has it.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(first.countedAt) + GRAPH_STATISTICS_MAX_AGE_MS + 1 });
    expect(await stats()).toEqual(first);
    await vi.waitFor(async () => {
      const recounted = await stats();
      expect(recounted.countedAt).not.toBe(first.countedAt);
      expect(recounted.documents).toBe(first.documents + 1);
    });

    // Past five minutes: the request itself waits for a recount.
    await database.db.delete(documents).where(eq(documents.contentHash, "test-held-statistics-1"));
    vi.setSystemTime(Date.now() + GRAPH_STATISTICS_HARD_MAX_AGE_MS + 1);
    const waited = await stats();
    expect(waited.documents).toBe(first.documents);
    expect(Date.parse(waited.countedAt)).toBe(Date.now());

    // An ingest batch through this database recounts at once, well inside the minute.
    const ingested = await ingestDocuments(database.db, {
      batch: [
        {
          kind: "article",
          source: "test:held-statistics",
          engine: null,
          query: null,
          fetchedAt: new Date("2026-11-03T10:00:00Z"),
          language: "en",
          cityId: city!.id,
          categorySlug: null,
          body: "Another document naming nobody.",
        },
      ],
    });
    expect(ingested.stored).toBe(1);
    const afterIngest = await stats();
    expect(afterIngest.documents).toBe(first.documents + 1);
    expect(afterIngest.documents).toBe(await documentsInSql());
  });
});
