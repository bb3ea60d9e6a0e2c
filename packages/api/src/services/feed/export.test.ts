import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities, feedDocuments, registryRecords, type Db } from "@directory/db";
import { feedChangesPage, TEST_BASE_URL } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { writeClaims } from "../claims/claim-writes";
import { decommissionBusiness, reactivateBusiness } from "../claims/lifecycle";
import { unverifyOwner, verifyOwner } from "../claims/verification";
import { importRegistry } from "../registry/import-registry";
import type { RegistryRecord, RegistryScan } from "../registry/registry-record";
import { sweepExpiredSubscriptions } from "./changes";
import { openFeedExport } from "./export";
import { FeedExportSlots } from "./export-slots";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const slots = new FeedExportSlots();

/** A partner's copy: location text by business id. */
type Copy = Map<string, string>;

async function takeExport(db: Db, partnerId = "key-a"): Promise<{ copy: Copy; after: number; count: number }> {
  let text = "";
  for await (const chunk of openFeedExport(db, { partnerId, baseUrl: TEST_BASE_URL, slots, chunkRows: 7 })) text += chunk;
  const lines = text.trimEnd().split("\n");
  const last = JSON.parse(lines.pop()!) as { after: number; count: number };
  const copy: Copy = new Map();
  for (const line of lines) {
    const id = (JSON.parse(line) as { identifier: string }).identifier;
    expect(copy.has(id), `${id} once`).toBe(false);
    copy.set(id, line);
  }
  return { copy, ...last };
}

/** Follows the change feed from a position, applying each change to the copy; returns the new position. */
async function follow(copy: Copy, after: number): Promise<number> {
  for (;;) {
    const page = await feedChangesPage(database.db, { after, limit: 5, baseUrl: TEST_BASE_URL });
    for (const change of page.changes) {
      if (change.action === "upsert") copy.set(change.id, JSON.stringify(change.location));
      else {
        expect(copy.has(change.id), `a remove of ${change.id} follows its upsert`).toBe(true);
        copy.delete(change.id);
      }
    }
    after = page.nextAfter;
    if (!page.hasMore) return after;
  }
}

async function visible(offset: number) {
  const [row] = await database.db
    .select({ id: businesses.id, slug: businesses.slug })
    .from(businesses)
    .innerJoin(feedDocuments, eq(feedDocuments.businessId, businesses.id))
    .where(sql`${businesses.subscriptionExpiresAt} is null`)
    .orderBy(businesses.id)
    .offset(offset)
    .limit(1);
  return row!;
}

async function scanWith(records: RegistryRecord[]): Promise<RegistryScan> {
  return {
    area: { minLat: 47.0, minLng: 9.4, maxLat: 47.3, maxLng: 9.7 },
    records,
    elements: records.length,
    skipped: {},
    unmappedTags: {},
    unparsedOpeningHours: {},
  };
}

describe("the bulk export", () => {
  it("holds every feed-visible location once, then the position it is consistent with", async () => {
    const { copy, count, after } = await takeExport(database.db);
    const stored = await database.db.select({ id: feedDocuments.businessId }).from(feedDocuments);
    expect(count).toBe(stored.length);
    expect([...copy.keys()].sort()).toEqual(stored.map((row) => row.id).sort());
    expect(after).toBeGreaterThanOrEqual(0);
  });

  it("runs once per key at a time (another key is not refused) and frees the key when the reader stops", async () => {
    const first = openFeedExport(database.db, { partnerId: "key-busy", baseUrl: TEST_BASE_URL, slots, chunkRows: 3 });
    await first.next();
    expect(() => openFeedExport(database.db, { partnerId: "key-busy", baseUrl: TEST_BASE_URL, slots })).toThrow(
      expect.objectContaining({ code: "RATE_LIMITED" }),
    );
    const other = openFeedExport(database.db, { partnerId: "key-other", baseUrl: TEST_BASE_URL, slots });
    await other.return();
    await first.return();
    const again = openFeedExport(database.db, { partnerId: "key-busy", baseUrl: TEST_BASE_URL, slots });
    await again.return();
  });

  it("then the changes rebuild the partner's copy exactly: owner edit, decommission, expiry, un-verify, import diff", async () => {
    const taken = await takeExport(database.db);
    const copy = taken.copy;
    const [edited, decommissioned, expiring, unverified] = [await visible(0), await visible(1), await visible(2), await visible(3)];

    await writeClaims(database.db, [
      { business: edited, claims: [{ property: "phone", value: "+41 44 000 00 00", source: "owner:test", confidence: 0.9, verification: "self_reported" }] },
    ]);
    await decommissionBusiness(database.db, { slug: decommissioned.slug });
    await reactivateBusiness(database.db, { slug: expiring.slug, renewUntil: new Date(Date.now() + 1_000) });
    await unverifyOwner(database.db, { slug: unverified.slug });

    // An import adds a business; once its owner is verified it is in the feed; the next import
    // changes it; the one after no longer lists it (removed_from_source).
    const [city] = await database.db.select().from(cities).limit(1);
    const gazetteerCity = { ...city!, lat: 47.15, lng: 9.55 };
    const record = (phone: string): RegistryRecord => ({
      recordId: "node/24001",
      observedAt: new Date(),
      confidence: 0.7,
      city: gazetteerCity,
      facts: { name: "Feed Test Bakery", category: "bakery", coordinates: { lat: 47.15, lng: 9.55 }, phone },
    });
    await importRegistry(database.db, await scanWith([record("+423 000 00 01")]), { source: "feed-test" });
    const [imported] = await database.db
      .select({ businessId: registryRecords.businessId })
      .from(registryRecords)
      .where(eq(registryRecords.recordId, "node/24001"));
    const importedSlug = (await database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, imported!.businessId)))[0]!.slug;
    await verifyOwner(database.db, { slug: importedSlug });
    let after = await follow(copy, taken.after);
    expect(JSON.parse(copy.get(imported!.businessId)!).telephone).toBe("+423 000 00 01");
    await importRegistry(database.db, await scanWith([record("+423 000 00 02")]), { source: "feed-test" });
    after = await follow(copy, after);
    expect(JSON.parse(copy.get(imported!.businessId)!).telephone).toBe("+423 000 00 02");
    await importRegistry(database.db, await scanWith([]), { source: "feed-test", allowRemovals: true });

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await sweepExpiredSubscriptions(database.db);
    after = await follow(copy, after);

    for (const gone of [decommissioned, expiring, unverified, { id: imported!.businessId }]) expect(copy.has(gone.id)).toBe(false);
    expect(JSON.parse(copy.get(edited.id)!).telephone).toBe("+41 44 000 00 00");
    const fresh = await takeExport(database.db);
    expect(fresh.after).toBe(after);
    expect(new Map([...copy].sort())).toEqual(new Map([...fresh.copy].sort()));
  });
});
