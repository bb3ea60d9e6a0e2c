import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database, type Db } from "@directory/db";
import { partnerFeedPage, TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { decodeFeedCursor, encodeFeedCursor, feedCursorKey, filtersFingerprint } from "./feed-cursor";
import type { PartnerFeedPage, PartnerFeedPageParams } from "./partner-feed";

/*
 * Issue 38, finding 5: the partner feed's cursor carried its traversal's total and offset, and a
 * page echoed whatever a cursor said. A partner who edits a cursor gets a 400, never its numbers.
 */

let database: TestDatabase;
let other: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  other = await createTestDatabase({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await database?.destroy();
  await other?.destroy();
});

const FIRST_PAGE: PartnerFeedPageParams = { limit: 25, offset: 0, baseUrl: TEST_BASE_URL };
/** Where the cursor keeps the offset and the total, as a client decoding its base64 JSON finds them. */
const OFFSET = 2;
const TOTAL = 3;

/** The cursor with some of its parts replaced and encoded again as a client would: every other part kept as it came. */
function edited(cursor: string, replacements: Record<number, unknown>): string {
  const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
  return Buffer.from(JSON.stringify(parts.map((part, index) => (index in replacements ? replacements[index] : part)))).toString("base64url");
}

/** What the feed answers a cursor: the page's own numbers, or the error's code and whether it names the cursor. */
async function answerTo(db: Db, cursor: string) {
  return partnerFeedPage(db, { ...FIRST_PAGE, cursor }).then(
    (page) => ({ total: page.total, offset: page.offset }),
    (error: { code?: string; message?: string }) => ({ code: error.code, namesCursor: String(error.message).includes("cursor") }),
  );
}

const REFUSED = { code: "INVALID_INPUT", namesCursor: true };

/** Follows nextCursor from the first page to the last. */
async function walkByCursor(db: Db, limit: number): Promise<PartnerFeedPage[]> {
  const pages = [await partnerFeedPage(db, { ...FIRST_PAGE, limit })];
  while (pages.at(-1)!.nextCursor !== null) {
    pages.push(await partnerFeedPage(db, { ...FIRST_PAGE, limit, cursor: pages.at(-1)!.nextCursor! }));
    if (pages.length > 1_000) throw new Error("the cursor walk does not end");
  }
  return pages;
}

describe("a partner feed cursor edited by its client", () => {
  it("is refused with 400 when its total or offset is edited: the forged numbers never come back", async () => {
    const real = (await partnerFeedPage(database.db, FIRST_PAGE)).nextCursor!;
    expect(await answerTo(database.db, real)).toEqual({ total: expect.any(Number), offset: FIRST_PAGE.limit });
    const forgeries = {
      "total raised": edited(real, { [TOTAL]: 999_999 }),
      "total zeroed": edited(real, { [TOTAL]: 0 }),
      "offset moved": edited(real, { [OFFSET]: 7 }),
      "offset of 2^63": edited(real, { [OFFSET]: 2 ** 63 }),
      "offset of 2^53 + 2": edited(real, { [OFFSET]: 2 ** 53 + 2 }),
      "total of 2^64": edited(real, { [TOTAL]: 2 ** 64 }),
    };
    const answers: Record<string, unknown> = {};
    for (const [what, cursor] of Object.entries(forgeries)) answers[what] = await answerTo(database.db, cursor);
    expect(answers).toEqual(Object.fromEntries(Object.keys(forgeries).map((what) => [what, REFUSED])));
  });

  it("is refused when its offset or total is not a count, even signed with the feed's own key", async () => {
    const key = await feedCursorKey(database.db);
    const real = decodeFeedCursor((await partnerFeedPage(database.db, FIRST_PAGE)).nextCursor!, filtersFingerprint({}), key);
    expect(await answerTo(database.db, encodeFeedCursor(real, key))).toEqual({ total: real.total, offset: real.offset });
    const numbers = {
      "offset of 2^63": { offset: 2 ** 63 },
      "offset of 2^53 + 2": { offset: 2 ** 53 + 2 },
      "negative total": { total: -1 },
      "fractional offset": { offset: 1.5 },
    };
    const answers: Record<string, unknown> = {};
    for (const [what, change] of Object.entries(numbers)) answers[what] = await answerTo(database.db, encodeFeedCursor({ ...real, ...change }, key));
    expect(answers).toEqual(Object.fromEntries(Object.keys(numbers).map((what) => [what, REFUSED])));
  });

  it("is refused by another database: a cursor continues only the feed that issued it", async () => {
    const real = (await partnerFeedPage(database.db, FIRST_PAGE)).nextCursor!;
    // Both hold the same world, so the cursor's row exists in each: only the issuer may accept it.
    expect((await partnerFeedPage(other.db, FIRST_PAGE)).locations.map((l) => l.identifier)).toEqual(
      (await partnerFeedPage(database.db, FIRST_PAGE)).locations.map((l) => l.identifier),
    );
    expect(await answerTo(other.db, real)).toEqual(REFUSED);
  });
});

describe("a genuine partner feed cursor", () => {
  it("walks the whole feed: every location once, in the order of one page holding them all, one total, contiguous offsets", async () => {
    const everything = await partnerFeedPage(database.db, { ...FIRST_PAGE, limit: 500 });
    expect(everything.nextCursor).toBeNull();
    expect(everything.total).toBe(everything.locations.length);
    const pages = await walkByCursor(database.db, 25);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.flatMap((page) => page.locations.map((location) => location.identifier))).toEqual(everything.locations.map((l) => l.identifier));
    expect(pages.map((page) => page.total)).toEqual(pages.map(() => everything.total));
    expect(pages.map((page) => page.offset)).toEqual(pages.map((_, index) => index * 25));
  });

  // Two server instances are two connection pools on one database; an embedded database has one.
  it.skipIf(!process.env.TEST_DATABASE_URL)("is accepted by every instance sharing the database, from their first request", async () => {
    // A database no request has asked yet: no instance has made its signing key.
    const fresh = await createTestDatabase({ seed: SMALL_TEST_WORLD });
    const pools: Database[] = [await createDatabase({ url: fresh.url! }), await createDatabase({ url: fresh.url! })];
    try {
      // Both instances cold at once: each may be the one to create the signing key.
      const firsts = await Promise.all(pools.map((pool) => partnerFeedPage(pool.db, FIRST_PAGE)));
      expect(firsts[0]!.nextCursor).toBe(firsts[1]!.nextCursor);
      const [one, two] = pools.map((pool) => pool.db);
      const nextOnTwo = await partnerFeedPage(two!, { ...FIRST_PAGE, cursor: firsts[0]!.nextCursor! });
      const nextOnOne = await partnerFeedPage(one!, { ...FIRST_PAGE, cursor: nextOnTwo.nextCursor! });
      expect([nextOnTwo.offset, nextOnOne.offset]).toEqual([25, 50]);
      expect(await answerTo(fresh.db, nextOnOne.nextCursor!)).toEqual({ total: firsts[0]!.total, offset: 75 });
    } finally {
      for (const pool of pools) await pool.close();
      await fresh.destroy();
    }
  });
});
