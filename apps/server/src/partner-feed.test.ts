import { and, asc, count, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, generateApiKey } from "@directory/api";
import { apiKeys, businesses, categories } from "@directory/db";
import { getJson, startTestServer, type JsonBody, type TestServer } from "./testing";

let server: TestServer;
let partnerKey: string;
let developerKey: string;
beforeAll(async () => {
  server = await startTestServer();
  partnerKey = (await createApiKey(server.database.db, { kind: "partner" })).key;
  developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.database.db;

/** What partners may redistribute (spec 4.4): verified, active, subscription not run out. */
const feedCondition = and(
  eq(businesses.status, "active"),
  eq(businesses.ownership, "owner_verified"),
  sql`(${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now())`,
);

async function expectedIds(...extra: (SQL | undefined)[]): Promise<string[]> {
  const rows = await db()
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(feedCondition, ...extra))
    .orderBy(asc(businesses.updatedAt), asc(businesses.id));
  return rows.map((r) => r.id);
}

function feed(query: URLSearchParams | string = "", key: string | null = partnerKey, base = server.url) {
  const text = query.toString();
  return getJson(base, `/api/v2/partner-feed${text ? `?${text}` : ""}`, key === null ? {} : { authorization: `Bearer ${key}` });
}

/** Follows nextCursor from the first page until it is null, repeating the filters on every request. */
async function walkWithCursor(filters: Record<string, string>, limit: number): Promise<JsonBody[]> {
  const pages: JsonBody[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ ...filters, limit: String(limit) });
    if (cursor) query.set("cursor", cursor);
    const { status, body } = await feed(query);
    expect(status, JSON.stringify(body)).toBe(200);
    pages.push(body);
    cursor = body.nextCursor;
    if (pages.length > 10_000) throw new Error("the cursor walk does not end");
  } while (cursor !== null);
  return pages;
}

/** Requests offset=0, limit, 2*limit, ... until a page comes back short or empty. */
async function walkWithOffset(filters: Record<string, string>, limit: number, total: number): Promise<JsonBody[]> {
  const pages: JsonBody[] = [];
  for (let offset = 0; offset < total || pages.length === 0; offset += limit) {
    const { status, body } = await feed(new URLSearchParams({ ...filters, limit: String(limit), offset: String(offset) }));
    expect(status, JSON.stringify(body)).toBe(200);
    pages.push(body);
  }
  return pages;
}

function idsOf(pages: JsonBody[]): string[] {
  return pages.flatMap((page) => (page.locations as JsonBody[]).map((location) => location.identifier as string));
}

/** Asserts the envelope of a complete walk: total on every page, contiguous offsets, nextCursor only before the end. */
function expectConsistentPages(pages: JsonBody[], limit: number, total: number): void {
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

describe("GET /api/v2/partner-feed: authentication", () => {
  it("is 401 without a key, naming the public alternative", async () => {
    const { status, body } = await feed("", null);
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: expect.any(String), code: "UNAUTHORIZED", publicAlternative: expect.any(String) });
    expect(body.error).toMatch(/key/i);
    expect(body.publicAlternative.length).toBeGreaterThan(0);
  });

  it("is 401 with publicAlternative for a malformed key, a typo of a real key and a well-formed unknown key", async () => {
    const typo = `${partnerKey.slice(0, -1)}${partnerKey.endsWith("a") ? "b" : "a"}`;
    for (const key of ["not-a-key", typo, generateApiKey("partner")]) {
      const { status, body } = await feed("", key);
      expect(status, key).toBe(401);
      expect(body, key).toMatchObject({ error: expect.any(String), code: "INVALID_API_KEY", publicAlternative: expect.any(String) });
    }
  });

  it("is 401 with publicAlternative for a revoked partner key", async () => {
    const { key, apiKey } = await createApiKey(db(), { kind: "partner" });
    expect((await feed("", key)).status).toBe(200);
    await db().update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, apiKey.id));
    const { status, body } = await feed("", key);
    expect(status).toBe(401);
    expect(body.publicAlternative).toEqual(expect.any(String));
  });

  it("is 403 for a developer or business key, and serves partner and admin keys", async () => {
    const developer = await feed("", developerKey);
    expect(developer.status).toBe(403);
    expect(developer.body).toMatchObject({ error: expect.any(String), code: "FORBIDDEN" });
    const [someBusiness] = await db().select({ slug: businesses.slug }).from(businesses).where(feedCondition).limit(1);
    const businessKey = (await createApiKey(db(), { kind: "business", businessSlug: someBusiness!.slug })).key;
    expect((await feed("", businessKey)).status).toBe(403);
    expect((await feed("", partnerKey)).status).toBe(200);
    expect((await feed("", server.adminKey)).status).toBe(200);
  });
});

describe("GET /api/v2/partner-feed: parameters", () => {
  it("pages 100 by default and accepts limit=500", async () => {
    const total = (await expectedIds()).length;
    const byDefault = await feed();
    expect(byDefault.status).toBe(200);
    expect(byDefault.body).toMatchObject({ total, limit: 100, offset: 0 });
    expect(byDefault.body.locations).toHaveLength(Math.min(100, total));

    const max = await feed("limit=500");
    expect(max.status).toBe(200);
    expect(max.body.limit).toBe(500);
    expect(max.body.locations).toHaveLength(Math.min(500, total));
  });

  it.each([
    ["limit=501", "limit"],
    ["limit=0", "limit"],
    ["limit=-1", "limit"],
    ["limit=2.5", "limit"],
    ["limit=abc", "limit"],
    ["offset=-1", "offset"],
    ["updatedSince=not-a-date", "updatedSince"],
    ["updatedSince=2026-13-01", "updatedSince"],
    ["updatedSince=yesterday", "updatedSince"],
    ["cursor=garbage", "cursor"],
    [`cursor=${Buffer.from("[1,2,3]").toString("base64url")}`, "cursor"],
  ])("refuses %s with 400 { error, code } (no clamping, no stack)", async (query, parameter) => {
    const { status, body } = await feed(query);
    expect(status).toBe(400);
    expect(body).toEqual({ error: expect.stringContaining(parameter), code: "INVALID_INPUT" });
    expect(JSON.stringify(body)).not.toMatch(/stack|at \w+ \(/);
  });

  it("refuses an impossible calendar date in updatedSince rather than rolling it over", async () => {
    // 2026-02-30 does not exist; JavaScript's Date would silently read it as 2026-03-02.
    const { status, body } = await feed("updatedSince=2026-02-30");
    expect(status).toBe(400);
    expect(body.code).toBe("INVALID_INPUT");
  });

  it("refuses a tampered cursor with 400, never a 500", async () => {
    const real = (await feed("limit=10")).body.nextCursor as string;
    const parts = JSON.parse(Buffer.from(real, "base64url").toString("utf8")) as unknown[];
    expect(parts).toHaveLength(5);
    const tampered = (index: number, value: unknown) => Buffer.from(JSON.stringify(parts.map((p, i) => (i === index ? value : p)))).toString("base64url");
    const cases = {
      "id of 36 dashes": tampered(1, "-".repeat(36)),
      "id that is not a uuid": tampered(1, "0123456789abcdef0123456789abcdef0123"),
      "updated_at beyond bigint": tampered(0, "99999999999999999999"),
      "updated_at beyond the timestamp range": tampered(0, "9223372036854775807"),
      "negative offset": tampered(2, -1),
      "other filters": tampered(4, "AAAAAAAAAAAAAAAA"),
    };
    const answers: Record<string, unknown> = {};
    for (const [what, cursor] of Object.entries(cases)) {
      const { status, body } = await feed(new URLSearchParams({ limit: "10", cursor }));
      answers[what] = { status, code: body.code, namesCursor: String(body.error).includes("cursor") };
    }
    const refused = { status: 400, code: "INVALID_INPUT", namesCursor: true };
    expect(answers).toEqual(Object.fromEntries(Object.keys(cases).map((what) => [what, refused])));
  });

  it("refuses a cursor together with offset > 0", async () => {
    const first = await feed("limit=10");
    const cursor = first.body.nextCursor as string;
    expect(typeof cursor).toBe("string");
    const both = await feed(new URLSearchParams({ limit: "10", cursor, offset: "10" }));
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: expect.stringContaining("offset"), code: "INVALID_INPUT" });
    // offset=0 is the default, so it is not a conflict.
    expect((await feed(new URLSearchParams({ limit: "10", cursor, offset: "0" }))).status).toBe(200);
  });

  it("refuses a cursor replayed with other filters", async () => {
    const first = await feed("limit=1&category=dent");
    expect(first.status).toBe(200);
    const cursor = first.body.nextCursor as string;
    expect(typeof cursor).toBe("string");
    // Same filter in another case is the same query.
    expect((await feed(new URLSearchParams({ limit: "1", category: "DENT", cursor }))).status).toBe(200);
    const otherFilters: Record<string, string>[] = [{ category: "plumb" }, {}, { category: "dent", updatedSince: "2020-01-01" }];
    for (const filters of otherFilters) {
      const { status, body } = await feed(new URLSearchParams({ limit: "1", ...filters, cursor }));
      expect(status, JSON.stringify(filters)).toBe(400);
      expect(body, JSON.stringify(filters)).toEqual({ error: expect.stringContaining("cursor"), code: "INVALID_INPUT" });
    }
  });
});

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
    const locations = pages.flatMap((page) => page.locations as JsonBody[]);
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
    expect((combined.body.locations as JsonBody[]).map((l) => l.identifier)).toEqual(expected);
  });
});

describe("GET /api/v2/partner-feed: locations", () => {
  it("are schema.org LocalBusiness subtypes with PostalAddress, GeoCoordinates and opening hours", async () => {
    const pages = await walkWithCursor({}, 500);
    const locations = pages.flatMap((page) => page.locations as JsonBody[]);
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
      for (const spec of location.openingHoursSpecification as JsonBody[]) expect(spec["@type"]).toBe("OpeningHoursSpecification");
      expect(Number.isNaN(Date.parse(location.dateModified))).toBe(false);
    }
  });

  it("carry the same name, address and phone as the entity profile and its structured data", async () => {
    const { body } = await feed("limit=500");
    const locations = body.locations as JsonBody[];
    const sample = [0, 1, Math.floor(locations.length / 3), Math.floor(locations.length / 2), locations.length - 2, locations.length - 1].map(
      (i) => locations[i],
    );
    for (const location of sample) {
      const [row] = await db().select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, location.identifier));
      const profile = await getJson(server.url, `/api/v2/entity-profile?slug=${row!.slug}`);
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

describe("GET /api/v2/partner-feed: monthly quota", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ seed: { businesses: 60 }, rateLimits: { anonymousPerDay: 500, keyedPerMonth: 3 } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("answers 429 RATE_LIMITED with Retry-After once the partner key's quota is spent", async () => {
    const { key } = await createApiKey(limited.database.db, { kind: "partner" });
    for (let i = 1; i <= 3; i++) {
      const { status, headers } = await feed("", key, limited.url);
      expect(status, `request ${i}`).toBe(200);
      expect(headers.get("ratelimit-policy")).toMatch(/;q=3;/);
      expect(headers.get("ratelimit")).toMatch(new RegExp(`;r=${3 - i};`));
      expect(headers.get("retry-after")).toBeNull();
    }
    const refused = await feed("", key, limited.url);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: expect.any(String), code: "RATE_LIMITED" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit")).toMatch(/;r=0;/);
    // Another partner key has its own quota.
    const other = (await createApiKey(limited.database.db, { kind: "partner" })).key;
    expect((await feed("", other, limited.url)).status).toBe(200);
  });
});
