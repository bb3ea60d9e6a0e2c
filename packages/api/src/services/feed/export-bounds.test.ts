import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@directory/db";
import { TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { openFeedExport } from "./export";
import { FeedExportSlots, type FeedExportLimits } from "./export-slots";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An export of `slots` for `partnerId` whose consumer takes its first chunk, then stops taking. */
async function stalledExport(slots: FeedExportSlots, partnerId: string) {
  const stream = openFeedExport(database.db, { partnerId, baseUrl: TEST_BASE_URL, slots, chunkRows: 3 });
  expect((await stream.next()).done).toBe(false);
  return stream;
}

/** True once the database answers a query within a second: on PGlite, one connection, an export's open transaction holds every other query. */
async function databaseAnswers(): Promise<boolean> {
  const answer = database.db.execute(sql`select 1`).then(() => true);
  return Promise.race([answer, sleep(1_000).then(() => false)]);
}

/** Backends still in an export's snapshot (PostgreSQL): idle in its transaction, or running its COPY. */
async function exportBackends(): Promise<number> {
  const [row] = rowsOf<{ backends: number }>(
    await database.db.execute(sql`select count(*)::int as backends from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and (state like 'idle in transaction%' or (state = 'active' and query like 'copy (select document from feed_documents%'))`),
  );
  return row?.backends ?? -1;
}

/** After a cut: the slot is free again, and no snapshot is left open. */
async function expectEnded(slots: FeedExportSlots, partnerId: string): Promise<void> {
  expect(await databaseAnswers()).toBe(true);
  if (onPostgres) expect(await exportBackends()).toBe(0);
  slots.claim(partnerId)();
}

describe("the export's slots", () => {
  it("hold one export per partner and no more than the table's size, each freed with its stream", async () => {
    const slots = new FeedExportSlots({ slots: 2 });
    const first = openFeedExport(database.db, { partnerId: "partner-a", baseUrl: TEST_BASE_URL, slots });
    expect(() => openFeedExport(database.db, { partnerId: "partner-a", baseUrl: TEST_BASE_URL, slots })).toThrow(
      expect.objectContaining({ code: "RATE_LIMITED" }),
    );
    const second = openFeedExport(database.db, { partnerId: "partner-b", baseUrl: TEST_BASE_URL, slots });
    expect(() => openFeedExport(database.db, { partnerId: "partner-c", baseUrl: TEST_BASE_URL, slots })).toThrow(
      expect.objectContaining({ code: "RATE_LIMITED", message: expect.stringContaining("2 exports are running") }),
    );
    await first.return();
    const third = openFeedExport(database.db, { partnerId: "partner-c", baseUrl: TEST_BASE_URL, slots });
    await Promise.all([second.return(), third.return()]);
  });
});

describe("an export's bounds", () => {
  const bounds = (limits: Partial<FeedExportLimits>) => new FeedExportSlots({ rateWindowMs: 300, ...limits });

  it("cut a reader that takes less than the minimum rate over a window: its snapshot ends and its slot is freed", async () => {
    const slots = bounds({ minBytesPerSecond: 1_000_000_000, maxDurationMs: 60_000 });
    const stream = await stalledExport(slots, "partner-slow");
    await sleep(700);
    expect(stream.cut.aborted).toBe(true);
    expect(String(stream.cut.reason)).toMatch(/under the minimum of 1000000000 bytes a second/);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    await expectEnded(slots, "partner-slow");
  });

  it("cut an export at its maximum duration, whatever the rate", async () => {
    const slots = bounds({ minBytesPerSecond: 0, maxDurationMs: 400 });
    const stream = await stalledExport(slots, "partner-long");
    await sleep(200);
    expect(stream.cut.aborted).toBe(false);
    await sleep(500);
    expect(stream.cut.aborted).toBe(true);
    expect(String(stream.cut.reason)).toMatch(/longer than its maximum of 0.4 s/);
    await expectEnded(slots, "partner-long");
  });

  it("leave an export that is read to the end alone", async () => {
    const slots = bounds({ minBytesPerSecond: 1, maxDurationMs: 60_000 });
    const stream = openFeedExport(database.db, { partnerId: "partner-whole", baseUrl: TEST_BASE_URL, slots });
    let text = "";
    for await (const chunk of stream) text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    expect(text.trimEnd().split("\n").pop()).toMatch(/^\{"after":\d+,"count":\d+,"attributions":\[\]\}$/);
    await sleep(700);
    expect(stream.cut.aborted).toBe(false);
    await expectEnded(slots, "partner-whole");
  });
});
