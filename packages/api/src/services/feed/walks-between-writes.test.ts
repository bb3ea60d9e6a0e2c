import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedChangesPage, partnerFeedPage, TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { writeClaims } from "../claims/claim-writes";
import { findBusinessById } from "../entities/business-lookup";
import { feedPosition } from "./changes";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

describe("a partner walking the feeds while owners write", () => {
  it("a walk by cursor sees an owner edit made between two pages, as a fresh read does", async () => {
    const first = await partnerFeedPage(database.db, { limit: 3, offset: 0, baseUrl: TEST_BASE_URL });
    expect(first.nextCursor).not.toBeNull();
    // The first business of the second page is edited after that page was read once.
    const unchanged = await partnerFeedPage(database.db, { limit: 3, offset: 0, cursor: first.nextCursor!, baseUrl: TEST_BASE_URL });
    const edited = unchanged.locations[0]!;
    const again = await partnerFeedPage(database.db, { limit: 3, offset: 0, baseUrl: TEST_BASE_URL });
    expect(again.nextCursor).toBe(first.nextCursor);
    const business = await findBusinessById(database.db, edited.identifier);
    await writeClaims(database.db, [
      {
        business: business!,
        claims: [{ property: "description", value: "Edited between pages", source: "owner:test", confidence: 0.9, verification: "self_reported" }],
      },
    ]);
    const second = await partnerFeedPage(database.db, { limit: 3, offset: 0, cursor: first.nextCursor!, baseUrl: TEST_BASE_URL });
    // The edit moved the business to the feed's end (updated now): the second page no longer starts with it.
    expect(second.locations.map((location) => location.identifier)).not.toContain(edited.identifier);
    expect(second.locations.map((location) => location.identifier)).toEqual(
      unchanged.locations
        .slice(1)
        .map((l) => l.identifier)
        .concat(second.locations.at(-1)!.identifier),
    );
  });

  it("a catch-up sees a change committed between two pages", async () => {
    const start = (await feedPosition(database.db)).last;
    const [one, two] = (await partnerFeedPage(database.db, { limit: 2, offset: 0, baseUrl: TEST_BASE_URL })).locations;
    for (const location of [one!, two!, one!]) {
      const business = await findBusinessById(database.db, location.identifier);
      await writeClaims(database.db, [
        {
          business: business!,
          claims: [{ property: "description", value: `Edit ${Math.random()}`, source: "owner:test", confidence: 0.9, verification: "self_reported" }],
        },
      ]);
    }
    const page1 = await feedChangesPage(database.db, { after: start, limit: 2, baseUrl: TEST_BASE_URL });
    expect(page1.hasMore).toBe(true);
    // A fourth change commits before the partner asks for page 2.
    const business = await findBusinessById(database.db, two!.identifier);
    await writeClaims(database.db, [
      {
        business: business!,
        claims: [{ property: "description", value: "The fourth edit", source: "owner:test", confidence: 0.9, verification: "self_reported" }],
      },
    ]);
    const page2 = await feedChangesPage(database.db, { after: page1.nextAfter, limit: 2, baseUrl: TEST_BASE_URL });
    expect(page2.changes.map((change) => change.id)).toEqual([one!.identifier, two!.identifier]);
    expect(page2.changes[1]!.location?.description).toBe("The fourth edit");
  });
});
