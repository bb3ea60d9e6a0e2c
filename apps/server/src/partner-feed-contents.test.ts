import { and, asc, count, eq, gte, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordFeedChanges } from "@directory/api";
import { businesses, categories, rowsOf } from "@directory/db";
import type { TEntityProfile, TGetPartnerFeedChangesOutput, TGetPartnerFeedOutput } from "@directory/api/schemas";
import { getJson } from "./testing";

/** A location, with the schema.org parts (beyond the contract's own fields) these tests read. */
type Location = TGetPartnerFeedOutput["locations"][number] & {
  address: { streetAddress: string };
  openingHoursSpecification: { "@type": string }[];
};
/** A page of the feed, its locations as these tests read them. */
type Page = Omit<TGetPartnerFeedOutput, "locations"> & { locations: Location[] };
import { db, expectedIds, feed, feedCondition, partnerKey, server, usePartnerFeedServer } from "./partner-feed-fixtures";

/** What the partner feed holds: every redistributable business exactly once across pages, filtered as asked, as schema.org locations. */

usePartnerFeedServer();

/** Follows nextCursor from the first page until it is null, repeating the filters on every request. */
async function walkWithCursor(filters: Record<string, string>, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ ...filters, limit: String(limit) });
    if (cursor) query.set("cursor", cursor);
    const { status, body } = await feed<Page>(query);
    expect(status, JSON.stringify(body)).toBe(200);
    pages.push(body);
    cursor = body.nextCursor;
    if (pages.length > 10_000) throw new Error("the cursor walk does not end");
  } while (cursor !== null);
  return pages;
}

/** Requests offset=0, limit, 2*limit, ... until a page comes back short or empty. */
async function walkWithOffset(filters: Record<string, string>, limit: number, total: number): Promise<Page[]> {
  const pages: Page[] = [];
  for (let offset = 0; offset < total || pages.length === 0; offset += limit) {
    const { status, body } = await feed<Page>(new URLSearchParams({ ...filters, limit: String(limit), offset: String(offset) }));
    expect(status, JSON.stringify(body)).toBe(200);
    pages.push(body);
  }
  return pages;
}

function idsOf(pages: Page[]): string[] {
  return pages.flatMap((page) => page.locations.map((location) => location.identifier));
}

/** Asserts the envelope of a complete walk: total on every page, contiguous offsets, nextCursor only before the end. */
function expectConsistentPages(pages: Page[], limit: number, total: number): void {
  let position = 0;
  pages.forEach((page, index) => {
    const last = index === pages.length - 1;
    expect(page.total, `page ${index}`).toBe(total);
    expect(page.limit, `page ${index}`).toBe(limit);
    expect(page.offset, `page ${index}`).toBe(position);
    expect(page.locations.length, `page ${index}`).toBe(last ? total - position : limit);
    if (last) expect(page.nextCursor).toBeNull();
    else expect(typeof page.nextCursor, `page ${index}`).toBe("string");
    position += page.locations.length;
  });
  expect(position).toBe(total);
}

describe("GET /api/v2/partner-feed: paging the whole world", () => {
  it("walks every verified, active, unexpired business exactly once with cursors (limit=500 and limit=100)", async () => {
    const expected = await expectedIds();
    expect(expected.length).toBeGreaterThan(400); // enough for at least five pages of 100
    for (const limit of [500, 100]) {
      const pages = await walkWithCursor({}, limit);
      expect(pages.length).toBe(Math.ceil(expected.length / limit));
      expectConsistentPages(pages, limit, expected.length);
      const ids = idsOf(pages);
      expect(new Set(ids).size, "duplicates").toBe(ids.length);
      expect(new Set(ids)).toEqual(new Set(expected));
      expect(ids, "(updated_at, id) order").toEqual(expected);
    }
  });

  it("walks the same set in the same order with offset paging", async () => {
    const expected = await expectedIds();
    for (const limit of [500, 100]) {
      const pages = await walkWithOffset({}, limit, expected.length);
      expect(pages.length).toBeGreaterThanOrEqual(limit === 100 ? 5 : 2);
      expectConsistentPages(pages, limit, expected.length);
      const ids = idsOf(pages);
      expect(new Set(ids).size, "duplicates").toBe(ids.length);
      expect(ids).toEqual(expected);
    }
    const beyond = await feed(`limit=100&offset=${expected.length + 100}`);
    expect(beyond.status).toBe(200);
    expect(beyond.body).toMatchObject({ total: expected.length, offset: expected.length + 100, nextCursor: null, locations: [] });
  });

  it("keeps rows with an identical updated_at (to the microsecond) apart across page boundaries", async () => {
    const targets = (await expectedIds()).slice(0, 7);
    expect(targets).toHaveLength(7);
    // Beyond every seeded timestamp; five rows share one instant and two share the next microsecond.
    const later = await db()
      .select({ t: sql<string>`to_char((max(${businesses.updatedAt}) + interval '1 day') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')` })
      .from(businesses);
    const base = `${later[0]!.t}.123456+00`;
    await db()
      .update(businesses)
      .set({ updatedAt: sql`${base}::timestamptz` })
      .where(inArray(businesses.id, targets.slice(0, 5)));
    await db()
      .update(businesses)
      .set({ updatedAt: sql`${base}::timestamptz + interval '1 microsecond'` })
      .where(inArray(businesses.id, targets.slice(5)));
    // Written past the write path: the stored documents (dateModified) follow as the write path would have them.
    await db().transaction((tx) => recordFeedChanges(tx, targets, new Date()));
    const since = `${later[0]!.t}.123Z`;
    const expected = await expectedIds(gte(businesses.updatedAt, new Date(since)));
    expect(new Set(expected)).toEqual(new Set(targets));
    const pages = await walkWithCursor({ updatedSince: since }, 2);
    expectConsistentPages(pages, 2, 7);
    expect(idsOf(pages)).toEqual(expected);
  });
});

describe("GET /api/v2/partner-feed: filters", () => {
  async function categoryCount(slugs: string[]) {
    if (slugs.length === 0) return 0;
    const [row] = await db()
      .select({ n: count() })
      .from(businesses)
      .where(and(feedCondition, inArray(businesses.categorySlug, slugs)));
    return row?.n ?? 0;
  }

  it("filters by a case-insensitive substring of the category slug or name", async () => {
    const allCategories = await db().select().from(categories);
    for (const filter of ["DENT", "Salon", "store"]) {
      const needle = filter.toLowerCase();
      const matching = allCategories.filter((c) => c.slug.toLowerCase().includes(needle) || c.name.toLowerCase().includes(needle)).map((c) => c.slug);
      expect(matching.length, filter).toBeGreaterThan(0);
      const expected = await categoryCount(matching);
      expect(expected, filter).toBeGreaterThan(0);
      const pages = await walkWithCursor({ category: filter }, 500);
      expectConsistentPages(pages, 500, expected);
      const ids = idsOf(pages);
      expect(new Set(ids).size).toBe(expected);
      const rows = await db().select({ id: businesses.id, categorySlug: businesses.categorySlug }).from(businesses).where(inArray(businesses.id, ids));
      expect(rows).toHaveLength(ids.length);
      for (const row of rows) expect(matching, `${filter}: ${row.id}`).toContain(row.categorySlug);
    }
    expect(allCategories.some((c) => c.slug === "dentist")).toBe(true);
  });

  it("returns an empty page for a category that matches nothing, and treats % and _ literally", async () => {
    for (const filter of ["unicorn groomer", "%", "_", "dent%"]) {
      const { status, body } = await feed(new URLSearchParams({ category: filter }));
      expect(status, filter).toBe(200);
      expect(body, filter).toMatchObject({ total: 0, offset: 0, nextCursor: null, locations: [] });
    }
  });

  it("filters by updatedSince (ISO date-time), inclusive", async () => {
    const ordered = await db().select({ updatedAt: businesses.updatedAt }).from(businesses).where(feedCondition).orderBy(asc(businesses.updatedAt));
    const median = ordered[Math.floor(ordered.length / 2)]!.updatedAt;
    const since = median.toISOString();
    const expected = await expectedIds(gte(businesses.updatedAt, median));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(ordered.length);
    const pages = await walkWithCursor({ updatedSince: since }, 100);
    expectConsistentPages(pages, 100, expected.length);
    const locations = pages.flatMap((page) => page.locations);
    for (const location of locations) expect(new Date(location.dateModified).getTime()).toBeGreaterThanOrEqual(median.getTime());
    expect(locations.map((l) => l.identifier)).toEqual(expected);
    // The row updated exactly at the boundary is included.
    expect(locations.some((l) => l.dateModified === since)).toBe(true);
  });

  it("accepts a plain date (YYYY-MM-DD, midnight UTC) and combines it with a category", async () => {
    const ordered = await db().select({ updatedAt: businesses.updatedAt }).from(businesses).where(feedCondition).orderBy(asc(businesses.updatedAt));
    const day = ordered[Math.floor(ordered.length / 3)]!.updatedAt.toISOString().slice(0, 10);
    const midnight = new Date(`${day}T00:00:00.000Z`);
    const plain = await feed(new URLSearchParams({ updatedSince: day }));
    expect(plain.status).toBe(200);
    expect(plain.body.total).toBe((await expectedIds(gte(businesses.updatedAt, midnight))).length);

    const combined = await feed(new URLSearchParams({ updatedSince: day, category: "dentist", limit: "500" }));
    expect(combined.status).toBe(200);
    const expected = await expectedIds(gte(businesses.updatedAt, midnight), eq(businesses.categorySlug, "dentist"));
    expect(combined.body.total).toBe(expected.length);
    expect(combined.body.locations.map((l) => l.identifier)).toEqual(expected);
  });
});

describe("GET /api/v2/partner-feed: locations", () => {
  it("are schema.org LocalBusiness subtypes with PostalAddress, GeoCoordinates and opening hours", async () => {
    const pages = await walkWithCursor({}, 500);
    const locations = pages.flatMap((page) => page.locations);
    const rows = await db()
      .select({ id: businesses.id, name: businesses.name, lat: businesses.lat, lng: businesses.lng, schemaOrgType: categories.schemaOrgType })
      .from(businesses)
      .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
      .where(feedCondition);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(locations).toHaveLength(rows.length);
    for (const location of locations) {
      const row = byId.get(location.identifier);
      expect(row, location.identifier).toBeDefined();
      expect(location["@context"]).toBe("https://schema.org");
      expect(location["@type"]).toBe(row!.schemaOrgType);
      expect(location.name).toBe(row!.name);
      expect(location.address["@type"]).toBe("PostalAddress");
      expect(typeof location.address.streetAddress).toBe("string");
      if (row!.lat !== null && row!.lng !== null) {
        expect(location.geo).toEqual({ "@type": "GeoCoordinates", latitude: row!.lat, longitude: row!.lng });
      } else {
        expect(location.geo).toBeUndefined();
      }
      expect(Array.isArray(location.openingHoursSpecification)).toBe(true);
      for (const spec of location.openingHoursSpecification) expect(spec["@type"]).toBe("OpeningHoursSpecification");
      expect(Number.isNaN(Date.parse(location.dateModified))).toBe(false);
    }
  });

  it("carry the same name, address and phone as the entity profile and its structured data", async () => {
    const { body } = await feed<Page>("limit=500");
    const locations = body.locations;
    const sample = [0, 1, Math.floor(locations.length / 3), Math.floor(locations.length / 2), locations.length - 2, locations.length - 1].map(
      (i) => locations[i]!,
    );
    for (const location of sample) {
      const [row] = await db().select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, location.identifier));
      const profile = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${row!.slug}`);
      expect(profile.status).toBe(200);
      expect(profile.body.identity.id).toBe(location.identifier);
      expect(location.name).toBe(profile.body.identity.name);
      expect(location.address.streetAddress).toBe(profile.body.contact.address);
      expect(location.telephone ?? null).toBe(profile.body.contact.phone);
      expect(location).toEqual(profile.body.structuredData);
    }
  });

  it("never carry an internal score", async () => {
    for (const page of await walkWithCursor({}, 500)) {
      expect(JSON.stringify(page)).not.toMatch(/geoScore|visibilityScore|geo_score|visibility_score/i);
    }
  });
});

describe('the REST door\'s Link header (rel="next")', () => {
  /** The address a Link header names as rel="next" (on the public origin), as this test server's address; null when it has none. */
  function nextLink(headers: Headers): string | null {
    const link = headers.get("link");
    if (link === null) return null;
    const match = /^<http:\/\/directory\.test(\/[^>]+)>; rel="next"$/.exec(link);
    expect(match, link).not.toBeNull();
    return `${server.url}${match![1]!}`;
  }

  it("names the page nextCursor names, with the same limit and filters, on every page but the last", async () => {
    const filters = { category: "store" };
    const byCursor = await walkWithCursor(filters, 10);
    expect(byCursor.length).toBeGreaterThan(2);
    let address: string | null = `${server.url}/api/v2/partner-feed?${new URLSearchParams({ ...filters, limit: "10" })}`;
    const byLink: Page[] = [];
    while (address !== null) {
      expect(address.startsWith(`${server.url}/api/v2/partner-feed?`), address).toBe(true);
      const { status, headers, body } = await getJson<Page>(address, "", { authorization: `Bearer ${partnerKey}` });
      expect(status, JSON.stringify(body)).toBe(200);
      byLink.push(body);
      address = nextLink(headers);
      expect(address === null, `page ${byLink.length}`).toBe(body.nextCursor === null);
      if (address !== null) expect(new URL(address).searchParams.get("cursor")).toBe(body.nextCursor);
      if (byLink.length > 1_000) throw new Error("the Link walk does not end");
    }
    expect(byLink).toEqual(byCursor);
  });

  it("names the change feed's next position (nextAfter) while hasMore, and nothing at the end", async () => {
    const [{ last }] = rowsOf<{ last: number }>(await db().execute(sql`select last::int as last from feed_position where id = 1`)) as [{ last: number }];
    const ids = (await expectedIds()).slice(0, 25);
    await db().transaction((tx) => recordFeedChanges(tx, ids, new Date()));
    let address: string | null = `${server.url}/api/v2/partner-feed/changes?after=${last}&limit=10`;
    const seen: string[] = [];
    while (address !== null) {
      const { status, headers, body } = await getJson<TGetPartnerFeedChangesOutput>(address, "", { authorization: `Bearer ${partnerKey}` });
      expect(status, JSON.stringify(body)).toBe(200);
      seen.push(...body.changes.map((change) => change.id));
      address = nextLink(headers);
      if (body.hasMore) expect(Object.fromEntries(new URL(address!).searchParams)).toEqual({ after: String(body.nextAfter), limit: "10" });
      else expect(address).toBeNull();
      if (seen.length > 1_000) throw new Error("the Link walk does not end");
    }
    expect(seen.length).toBe(ids.length);
    expect(new Set(seen)).toEqual(new Set(ids));
  });
});
