import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities, coMentionEdges, documents } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "@directory/api/testing";
import { ingestFile } from "./graph-commands";

let database: TestDatabase;
let folder: string;
beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  folder = mkdtempSync(join(tmpdir(), "graph-ingest-"));
});
afterAll(async () => {
  await database?.destroy();
  rmSync(folder, { recursive: true, force: true });
});

async function edgeWeight(a: string, b: string): Promise<number> {
  const [low, high] = [a, b].sort() as [string, string];
  const [row] = await database.db
    .select({ weight: coMentionEdges.weight })
    .from(coMentionEdges)
    .where(and(eq(coMentionEdges.businessA, low), eq(coMentionEdges.businessB, high)));
  return row?.weight ?? 0;
}

describe("pnpm admin graph ingest FILE.jsonl", () => {
  it("stores the documents and their edges at once; the same file again changes nothing", async () => {
    const rows = await database.db
      .select({ id: businesses.id, name: businesses.name, citySlug: cities.slug })
      .from(businesses)
      .innerJoin(cities, eq(cities.id, businesses.cityId))
      .where(eq(businesses.cityId, sql`(select city_id from businesses group by city_id order by count(*) desc, city_id limit 1)`))
      .orderBy(businesses.id);
    const unique = rows.filter((row) => !rows.some((other) => other !== row && (other.name.includes(row.name) || row.name.includes(other.name))));
    const [first, second, third] = unique;
    const line = (text: string, extra: object = {}) =>
      JSON.stringify({ source: "https://news.example/local", text, fetchedAt: "2026-10-01T08:00:00Z", city: first!.citySlug, language: "en", ...extra });
    const file = join(folder, "documents.jsonl");
    writeFileSync(
      file,
      [
        line(`Our readers' favourites: ${first!.name} and ${second!.name}.`),
        "",
        line(`Asked for help, the assistant named ${first!.name}, then ${third!.name}.`, { engine: "chatgpt", query: "who can help today" }),
      ].join("\n"),
    );
    const before = [await edgeWeight(first!.id, second!.id), await edgeWeight(first!.id, third!.id)];
    const [{ n: documentsBefore }] = (await database.db.select({ n: sql<number>`count(*)::int` }).from(documents)) as [{ n: number }];

    const once = await ingestFile(database.db, file, { progress: false });
    expect(once).toMatchObject({ stored: 2, duplicates: 0, mentions: 4 });
    expect([await edgeWeight(first!.id, second!.id), await edgeWeight(first!.id, third!.id)]).toEqual([before[0]! + 1, before[1]! + 1]);

    const again = await ingestFile(database.db, file, { progress: false });
    expect(again).toMatchObject({ stored: 0, duplicates: 2, mentions: 0 });
    expect([await edgeWeight(first!.id, second!.id), await edgeWeight(first!.id, third!.id)]).toEqual([before[0]! + 1, before[1]! + 1]);
    const [{ n: documentsAfter }] = (await database.db.select({ n: sql<number>`count(*)::int` }).from(documents)) as [{ n: number }];
    expect(documentsAfter).toBe(documentsBefore + 2);
  });

  it("keeps an answer's cited sources as a check keeps an engine's, and refuses sources that are not a list", async () => {
    const [city] = await database.db.select({ slug: cities.slug }).from(cities).limit(1);
    const answer = {
      source: "https://assistant.example/answers/1",
      text: "Ask around the old town.",
      fetchedAt: "2026-10-02T08:00:00Z",
      city: city!.slug,
      engine: "perplexity",
      sources: ["https://guide.example/best", "javascript:alert(1)", "https://user:secret@reviews.example/top", 42, "https://guide.example/best"],
    };
    const file = join(folder, "sourced.jsonl");
    writeFileSync(file, `${JSON.stringify(answer)}\n`);
    expect(await ingestFile(database.db, file, { progress: false })).toMatchObject({ stored: 1 });
    const [stored] = await database.db.select({ sources: documents.sources }).from(documents).where(eq(documents.source, answer.source));
    expect(stored?.sources).toEqual(["https://guide.example/best", "https://reviews.example/top"]);

    writeFileSync(file, `${JSON.stringify({ ...answer, sources: "https://guide.example/best" })}\n`);
    await expect(ingestFile(database.db, file, { progress: false })).rejects.toThrow(/sourced\.jsonl:1: "sources" must be an array of URLs/);
  });

  it("stops at an invalid line and names it", async () => {
    const file = join(folder, "invalid.jsonl");
    writeFileSync(file, `${JSON.stringify({ source: "x", text: "Nothing here", fetchedAt: "2026-10-01T08:00:00Z", city: "no-such-city-zz" })}\n`);
    await expect(ingestFile(database.db, file, { progress: false })).rejects.toThrow(/invalid\.jsonl:1: unknown city "no-such-city-zz"/);
  });
});
