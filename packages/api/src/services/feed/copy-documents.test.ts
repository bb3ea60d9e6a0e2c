import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Readable } from "node:stream";
import { CopyBinaryFields, rowsOf } from "@directory/db";
import { TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { baseBytes, baseReplacement } from "./feed-documents";
import { copyFeedDocuments } from "./copy-documents";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

/** The stored documents given their base URL by PostgreSQL's replace(): an oracle independent of servedPieces. */
async function expectedLines(): Promise<string[]> {
  const base = baseReplacement(TEST_BASE_URL);
  const rows = rowsOf<{ line: string }>(
    await database.db.execute(sql`select replace(document, ${base.placeholder}, ${base.replacement}) as line from feed_documents order by business_id`),
  );
  return rows.map((row) => row.line);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("the export's documents by COPY (PostgreSQL)", () => {
  it("are every stored document, base URL put in, in business id order, in batches of at most the rows asked", async () => {
    const expected = await expectedLines();
    expect(expected.length).toBeGreaterThan(10);
    const batches: string[] = [];
    const count = await database.db.transaction(async (tx) =>
      copyFeedDocuments(tx, baseBytes(TEST_BASE_URL), 7, async (batch) => {
        batches.push(Buffer.from(batch).toString("utf8"));
      }),
    );
    expect(count).toBe(expected.length);
    expect(batches.join("")).toBe(expected.map((line) => `${line}\n`).join(""));
    for (const batch of batches) expect(batch.trimEnd().split("\n").length).toBeLessThanOrEqual(7);
  });

  it("read the same however the stream is cut: a tuple, or COPY's header, split across chunks", async () => {
    // The driver's own COPY stream, whole, to cut by hand.
    const client = (database.db as unknown as { $client: { unsafe(copy: string): { readable(): Promise<Readable> } } }).$client;
    const stream = await client.unsafe("copy (select document from feed_documents order by business_id limit 20) to stdout (format binary)").readable();
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    // As copyColumnOut does after the end: the connection's socket may be left paused (@directory/db raw-reads.ts).
    stream._read(0);
    const whole = Buffer.concat(chunks);
    const documents = (fields: CopyBinaryFields, cuts: number[]) => {
      const found: string[] = [];
      let from = 0;
      for (const cut of [...cuts, whole.length]) {
        found.push(...fields.take(whole.subarray(from, cut)).map((field) => field.toString("utf8")));
        from = cut;
      }
      return found;
    };
    const atOnce = documents(new CopyBinaryFields(), []);
    expect(atOnce).toHaveLength(20);
    // Cut every 5 bytes (inside the header, every length and every text), and at a few odd places.
    const everyFive = Array.from({ length: Math.floor(whole.length / 5) }, (_, index) => (index + 1) * 5);
    expect(documents(new CopyBinaryFields(), everyFive)).toEqual(atOnce);
    expect(documents(new CopyBinaryFields(), [1, 18, 19, 20, 23, 1000, whole.length - 1])).toEqual(atOnce);
  });
});
