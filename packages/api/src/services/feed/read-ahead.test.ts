import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { writeClaims } from "../claims/claim-writes";
import { findBusinessById } from "../entities/business-lookup";
import { feedPosition, getFeedChanges } from "./changes";
import { getPartnerFeedPage } from "./partner-feed";
import { FeedReadAhead, type ReadResult } from "./read-ahead";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

describe("FeedReadAhead", () => {
  /** Pages numbered by `page`; each read is recorded with the position it was stamped with. */
  function numberedPages(positionNow: () => number) {
    const reads: { page: number; position: number }[] = [];
    const readAhead = new FeedReadAhead<{ page: number }, string>(async (_db, params, position) => {
      const stamped = position ?? positionNow();
      reads.push({ page: params.page, position: stamped });
      return { page: `page ${params.page} at ${stamped}`, position: stamped, next: params.page < 3 ? { page: params.page + 1 } : null };
    });
    return { reads, readAhead };
  }

  it("serves the next page read ahead while the feed has not moved, and reads afresh once it has", async () => {
    let position = 10;
    const { reads, readAhead } = numberedPages(() => position);
    expect(await readAhead.serve(database.db, { page: 1 }, position)).toBe("page 1 at 10");
    // Page 2 was read ahead when page 1 was served: taking it reads nothing more (but reads page 3 ahead).
    expect(await readAhead.serve(database.db, { page: 2 }, position)).toBe("page 2 at 10");
    expect(reads).toEqual([
      { page: 1, position: 10 },
      { page: 2, position: 10 },
      { page: 3, position: 10 },
    ]);
    // A change committed: the page read ahead at 10 is not served at 11.
    position = 11;
    expect(await readAhead.serve(database.db, { page: 3 }, position)).toBe("page 3 at 11");
    expect(reads.at(-1)).toEqual({ page: 3, position: 11 });
    // The last page has no next: nothing more is read.
    expect(reads).toHaveLength(4);
  });

  it("takes a page once: asking again reads it again", async () => {
    const { reads, readAhead } = numberedPages(() => 5);
    await readAhead.serve(database.db, { page: 1 }, 5);
    await readAhead.serve(database.db, { page: 2 }, 5);
    await readAhead.serve(database.db, { page: 2 }, 5);
    expect(reads.filter((read) => read.page === 2)).toHaveLength(2);
  });

  it("drops a read ahead that failed, and the request reads afresh", async () => {
    let failing = true;
    const readAhead = new FeedReadAhead<{ page: number }, string>(async (_db, params, position): Promise<ReadResult<{ page: number }, string>> => {
      if (params.page === 2 && failing) throw new Error("connection lost");
      return { page: `page ${params.page}`, position: position ?? 1, next: params.page < 2 ? { page: 2 } : null };
    });
    await readAhead.serve(database.db, { page: 1 }, 1);
    failing = false;
    expect(await readAhead.serve(database.db, { page: 2 }, 1)).toBe("page 2");
  });
});

describe("read-ahead on the feeds", () => {
  it("a walk by cursor sees an owner edit made between two pages, as a fresh read does", async () => {
    const first = await getPartnerFeedPage(database.db, { limit: 3, offset: 0, baseUrl: TEST_BASE_URL });
    expect(first.nextCursor).not.toBeNull();
    // The first page read the second ahead; now the first business of the second page is edited.
    const unchanged = await getPartnerFeedPage(database.db, { limit: 3, offset: 0, cursor: first.nextCursor!, baseUrl: TEST_BASE_URL });
    const edited = unchanged.locations[0]!;
    const again = await getPartnerFeedPage(database.db, { limit: 3, offset: 0, baseUrl: TEST_BASE_URL });
    expect(again.nextCursor).toBe(first.nextCursor);
    const business = await findBusinessById(database.db, edited.identifier);
    await writeClaims(database.db, [
      {
        business: business!,
        claims: [{ property: "description", value: "Edited between pages", source: "owner:test", confidence: 0.9, verification: "self_reported" }],
      },
    ]);
    const second = await getPartnerFeedPage(database.db, { limit: 3, offset: 0, cursor: first.nextCursor!, baseUrl: TEST_BASE_URL });
    // The edit moved the business to the feed's end (updated now): the second page no longer starts with it.
    expect(second.locations.map((location) => location.identifier)).not.toContain(edited.identifier);
    expect(second.locations.map((location) => location.identifier)).toEqual(
      unchanged.locations
        .slice(1)
        .map((l) => l.identifier)
        .concat(second.locations.at(-1)!.identifier),
    );
  });

  it("a catch-up sees a change committed between two pages, after the page read ahead", async () => {
    const start = (await feedPosition(database.db)).last;
    const [one, two] = (await getPartnerFeedPage(database.db, { limit: 2, offset: 0, baseUrl: TEST_BASE_URL })).locations;
    for (const location of [one!, two!, one!]) {
      const business = await findBusinessById(database.db, location.identifier);
      await writeClaims(database.db, [
        {
          business: business!,
          claims: [{ property: "description", value: `Edit ${Math.random()}`, source: "owner:test", confidence: 0.9, verification: "self_reported" }],
        },
      ]);
    }
    const page1 = await getFeedChanges(database.db, { after: start, limit: 2, baseUrl: TEST_BASE_URL });
    expect(page1.hasMore).toBe(true);
    // Page 2 (one change) was read ahead; a fourth change commits before the partner asks for it.
    const business = await findBusinessById(database.db, two!.identifier);
    await writeClaims(database.db, [
      {
        business: business!,
        claims: [{ property: "description", value: "The fourth edit", source: "owner:test", confidence: 0.9, verification: "self_reported" }],
      },
    ]);
    const page2 = await getFeedChanges(database.db, { after: page1.nextAfter, limit: 2, baseUrl: TEST_BASE_URL });
    expect(page2.changes.map((change) => change.id)).toEqual([one!.identifier, two!.identifier]);
    expect(page2.changes[1]!.location?.description).toBe("The fourth edit");
  });
});
