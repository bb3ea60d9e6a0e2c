import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, feedDocuments, rowsOf } from "@directory/db";
import { feedChangesPage, TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { writeClaims } from "../claims/claim-writes";
import { feedPosition } from "./changes";

/*
 * Positions follow commit order: a reader never skips a change that commits after it read a later
 * one. Only PostgreSQL runs transactions side by side (PGlite has one connection), so this runs
 * there: writers whose transactions start in one order and commit in another (random sleeps after
 * the write), and a reader following the feed the whole time.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let database: TestDatabase;
beforeAll(async () => {
  if (onPostgres) database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

describe.skipIf(!onPostgres)("the change feed under concurrent writers (PostgreSQL)", () => {
  it("never skips a change: the reader sees every committed change exactly once, in position order", async () => {
    const targets = await database.db
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .innerJoin(feedDocuments, eq(feedDocuments.businessId, businesses.id))
      .orderBy(businesses.id)
      .limit(8);
    const { last: start } = await feedPosition(database.db);
    const writes = 120;
    let writing = true;

    const writer = async (worker: number) => {
      for (let i = worker; i < writes; i += 6) {
        const business = targets[i % targets.length]!;
        await database.db.transaction(async (tx) => {
          await writeClaims(tx, [
            { business, claims: [{ property: "description", value: `edit ${i}`, source: `owner:w${i}`, confidence: 0.9, verification: "self_reported" }] },
          ]);
          // Hold the transaction open a random while: later-started writers on other businesses commit first.
          await tx.execute(sql`select pg_sleep(${Math.random() * 0.03})`);
        });
      }
    };
    const seen: number[] = [];
    const reader = async () => {
      let after = start;
      while (writing || (await feedPosition(database.db)).last > after) {
        const page = await feedChangesPage(database.db, { after, limit: 7, baseUrl: TEST_BASE_URL });
        seen.push(...page.changes.map((change) => change.seq));
        after = page.nextAfter;
      }
    };
    const reading = reader();
    await Promise.all([0, 1, 2, 3, 4, 5].map(writer));
    writing = false;
    await reading;

    const committed = rowsOf<{ seq: string }>(await database.db.execute(sql`select seq from feed_changes where seq > ${start} order by seq`)).map((row) =>
      Number(row.seq),
    );
    expect(committed).toHaveLength(writes);
    expect(seen).toEqual(committed);
    // Gapless: every position from start + 1 to the last was given, once.
    expect(committed).toEqual(committed.map((_, index) => start + index + 1));
  });
});
