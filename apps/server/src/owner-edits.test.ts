import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, categories, claims, outboxEvents } from "@directory/db";
import { createDirectoryClient, directoryErrorOf } from "@directory/sdk";
import type {
  TAddBusinessOutput,
  TEntityProfile,
  TGetPartnerFeedOutput,
  TLookupBusinessesOutput,
  TUpdateListingOutput,
  TVerifyClaimOutput,
} from "@directory/api/schemas";
import { type ErrorBody, getJson, startTestServer, type TestServer } from "./testing";

/**
 * Owner edits (PATCH /api/v2/owner/listing, owner.updateListing) and admin verification
 * (claims/verify, businesses/verify-owner, businesses) on REST and through the typed SDK, against
 * a live server: the key decides the business, and naming another is refused with nothing written.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.database.db;

let taken = 0;
async function ownedBusiness(ownership: "unclaimed" | "owner_verified" = "unclaimed") {
  const rows = await db()
    .select({ id: businesses.id, slug: businesses.slug, categorySlug: businesses.categorySlug })
    .from(businesses)
    .where(and(eq(businesses.status, "active"), eq(businesses.ownership, ownership), isNull(businesses.subscriptionExpiresAt)))
    .orderBy(asc(businesses.slug));
  const business = rows[taken++]!;
  return { ...business, key: (await createApiKey(db(), { kind: "business", businessSlug: business.slug })).key };
}

/** One call with the key if any; T is the body the test expects. */
async function send<T = unknown>(method: string, path: string, key: string | undefined, body: unknown) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${server.url}${path}`, { method, headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as T };
}
const patchListing = <T = TUpdateListingOutput>(key: string | undefined, body: unknown) => send<T>("PATCH", "/api/v2/owner/listing", key, body);

/** What a refused call must leave untouched: the business row, its claims and its events. */
async function snapshot(businessId: string) {
  const [row] = await db().select().from(businesses).where(eq(businesses.id, businessId));
  const [claimRows, events] = await Promise.all([
    db().select().from(claims).where(eq(claims.businessId, businessId)),
    db().select().from(outboxEvents).where(eq(outboxEvents.businessId, businessId)),
  ]);
  return { row, claims: claimRows.length, events: events.length };
}

const profileOf = async (slug: string, key?: string) =>
  (await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}${key ? "&history=true" : ""}`, key ? { authorization: `Bearer ${key}` } : {}))
    .body;

describe("PATCH /api/v2/owner/listing (REST)", () => {
  it("records self-reported claims on the key's own business; the profile and the listing show them", async () => {
    const own = await ownedBusiness();
    const { status, body } = await patchListing(own.key, { phone: "+91 22 6000 0001", website: "https://own.example/", keywords: ["late opening"] });
    expect(status).toBe(200);
    expect(body.business).toMatchObject({ id: own.id, slug: own.slug, ownership: "unclaimed" });
    expect(body.changed.sort()).toEqual(["keywords", "phone", "website"]);
    const phone = body.claims.find((claim) => claim.property === "phone");
    expect(phone).toMatchObject({ value: "+91 22 6000 0001", verification: "self_reported", source: expect.stringMatching(/^owner:key-/) });
    expect(phone!.source).not.toContain(own.key);
    const profile = await profileOf(own.slug);
    expect(profile.contact).toMatchObject({ phone: "+91 22 6000 0001", website: "https://own.example/" });
    expect(profile.claims.filter((claim) => claim.property === "phone")).toEqual([phone]);
  });

  it("refuses a body naming another business (slug or id) with 403, and writes nothing to either", async () => {
    const own = await ownedBusiness();
    const other = await ownedBusiness();
    const before = [await snapshot(own.id), await snapshot(other.id)];
    for (const naming of [{ slug: other.slug }, { id: other.id }, { slug: own.slug }]) {
      const { status, body } = await patchListing<ErrorBody>(own.key, { ...naming, phone: "+91 22 6000 0666" });
      expect(status, JSON.stringify(naming)).toBe(403);
      expect(body).toMatchObject({ code: "FORBIDDEN", error: expect.stringMatching(/names a business/) });
    }
    expect([await snapshot(own.id), await snapshot(other.id)]).toEqual(before);
  });

  it("admits business keys only: 401 without a key or with a bad one, 403 for developer, partner and admin keys", async () => {
    const own = await ownedBusiness();
    const before = await snapshot(own.id);
    expect((await patchListing(undefined, { phone: "+91 22 6000 0002" })).status).toBe(401);
    expect((await patchListing("bdk_dev_notarealkey", { phone: "+91 22 6000 0002" })).status).toBe(401);
    for (const kind of ["developer", "partner", "admin"] as const) {
      const { key } = await createApiKey(db(), { kind });
      const refused = await patchListing<ErrorBody>(key, { phone: "+91 22 6000 0002" });
      expect(refused.status, kind).toBe(403);
      expect(refused.body.error).toMatch(/business-scoped API key/);
    }
    expect(await snapshot(own.id)).toEqual(before);
  });

  it("answers 400 naming the problem: an unknown property, no property, an invalid phone or website", async () => {
    const own = await ownedBusiness();
    const before = await snapshot(own.id);
    for (const [body, message] of [
      [{ rating: 5 }, /rating/],
      [{}, /at least one of/],
      [{ phone: "call us" }, /phone.*international form/],
      [{ website: "ftp://own.example" }, /website.*http/],
    ] as const) {
      const refused = await patchListing<ErrorBody>(own.key, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error, JSON.stringify(body)).toMatch(message);
    }
    expect(await snapshot(own.id)).toEqual(before);
  });
});

describe("owner.updateListing (typed SDK)", () => {
  it("edits the key's own listing and surfaces the 403 for a body naming another business", async () => {
    const own = await ownedBusiness();
    const other = await ownedBusiness();
    const client = createDirectoryClient({ baseUrl: server.url, apiKey: own.key });
    const result = await client.owner.updateListing.mutate({
      tagline: "Walk-ins welcome",
      openingHours: [{ days: ["Monday"], opens: "09:00", closes: "17:00" }],
    });
    expect(result.changed.sort()).toEqual(["openingHours", "tagline"]);
    expect((await profileOf(own.slug)).aiSignals.tagline).toBe("Walk-ins welcome");
    const before = await snapshot(other.id);
    for (const naming of [{ slug: other.slug }, { id: other.id }]) {
      const error = await client.owner.updateListing.mutate({ ...naming, tagline: "Hijacked" }).catch((e: unknown) => e);
      expect(directoryErrorOf(error)).toMatchObject({ status: 403, code: "FORBIDDEN" });
    }
    expect(await snapshot(other.id)).toEqual(before);
    const anonymous = await createDirectoryClient({ baseUrl: server.url })
      .owner.updateListing.mutate({ tagline: "x" })
      .catch((e: unknown) => e);
    expect(directoryErrorOf(anonymous)?.status).toBe(401);
  });
});

describe("admin verification (REST and SDK)", () => {
  it("POST /api/v2/admin/claims/verify supersedes the current value with an admin-verified one; history shows both", async () => {
    const own = await ownedBusiness();
    await patchListing(own.key, { email: "desk@own.example" });
    const verified = await send<TVerifyClaimOutput>("POST", "/api/v2/admin/claims/verify", server.adminKey, { slug: own.slug, property: "email" });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ verified: true, claim: { source: "admin:verify", verification: "admin_verified", value: "desk@own.example" } });
    expect(verified.body.previous).toMatchObject({ verification: "self_reported", supersededBy: verified.body.claim.id });
    const history = (await profileOf(own.slug, server.adminKey)).claims.filter((claim) => claim.property === "email");
    expect(history.map((claim) => claim.verification)).toEqual(expect.arrayContaining(["admin_verified", "self_reported"]));
    const again = await createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey }).admin.verifyClaim.mutate({ slug: own.slug, property: "email" });
    expect(again).toMatchObject({ verified: false, claim: { id: verified.body.claim.id } });
  });

  it("verify answers 404 for an unknown slug, 400 for an unknown property, 403 for an owner's key", async () => {
    const own = await ownedBusiness();
    expect((await send("POST", "/api/v2/admin/claims/verify", server.adminKey, { slug: "no-such-business-zz", property: "phone" })).status).toBe(404);
    const unknown = await send<ErrorBody>("POST", "/api/v2/admin/claims/verify", server.adminKey, { slug: own.slug, property: "favouriteColour" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/property/);
    expect((await send("POST", "/api/v2/admin/claims/verify", own.key, { slug: own.slug, property: "phone" })).status).toBe(403);
  });

  it("verify-owner turns the listing owner_verified; it then shows in the partner feed", async () => {
    const own = await ownedBusiness("unclaimed");
    const partnerKey = (await createApiKey(db(), { kind: "partner" })).key;
    const inFeed = async () => {
      let cursor: string | null = null;
      do {
        const query: URLSearchParams = new URLSearchParams({ category: own.categorySlug, limit: "500", ...(cursor ? { cursor } : {}) });
        const page = await getJson<TGetPartnerFeedOutput>(server.url, `/api/v2/partner-feed?${query}`, { authorization: `Bearer ${partnerKey}` });
        expect(page.status).toBe(200);
        if (page.body.locations.some((location) => location.identifier === own.id)) return true;
        cursor = page.body.nextCursor;
      } while (cursor);
      return false;
    };
    expect(await inFeed()).toBe(false);
    const { status, body } = await send("POST", "/api/v2/admin/businesses/verify-owner", server.adminKey, { slug: own.slug });
    expect([status, body]).toEqual([200, { id: own.id, slug: own.slug, name: expect.any(String), ownership: "owner_verified", changed: true }]);
    expect(await inFeed()).toBe(true);
    expect((await profileOf(own.slug)).identity.ownership).toBe("owner_verified");
    const client = createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey });
    expect(await client.admin.verifyOwner.mutate({ slug: own.slug })).toMatchObject({ changed: false });
    expect((await send("POST", "/api/v2/admin/businesses/verify-owner", server.adminKey, { slug: "no-such-business-zz" })).status).toBe(404);
  });

  it("POST /api/v2/admin/businesses creates a business search finds by category and city, and refuses invalid input", async () => {
    const [category] = await db().select({ slug: categories.slug, name: categories.name }).from(categories).where(eq(categories.slug, "dentist"));
    const created = await send<TAddBusinessOutput>("POST", "/api/v2/admin/businesses", server.adminKey, {
      name: "Tidewater Dental Rooms",
      category: "dentist",
      city: "mumbai-in",
      phone: "+91 22 6000 0300",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: "tidewater-dental-rooms-mumbai", ownership: "unclaimed", id: expect.any(String) });
    const found: string[] = [];
    let cursor: string | null = null;
    do {
      const query: URLSearchParams = new URLSearchParams({ category: category!.name, city: "Mumbai", limit: "50", ...(cursor ? { cursor } : {}) });
      const page = await getJson<TLookupBusinessesOutput>(server.url, `/api/v2/businesses?${query}`);
      expect(page.status).toBe(200);
      found.push(...page.body.businesses.map((listing) => listing.slug));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(found).toContain(created.body.slug);

    const client = createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey });
    const viaSdk = await client.admin.addBusiness.mutate({ name: "Tidewater Dental Rooms", category: "dentist", city: "mumbai-in" });
    expect(viaSdk.slug).toBe("tidewater-dental-rooms-mumbai-2");
    const before = await db().$count(businesses);
    for (const [body, message] of [
      [{ category: "dentist", city: "mumbai-in" }, /name/],
      [{ name: "X Dental", category: "dentist", city: "nowhere-zz" }, /city.*nowhere-zz/],
      [{ name: "X Dental", category: "dentist", city: "mumbai-in", website: "javascript:alert(1)" }, /website/],
    ] as const) {
      const refused = await send<ErrorBody>("POST", "/api/v2/admin/businesses", server.adminKey, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toMatch(message);
    }
    const owner = await ownedBusiness();
    expect((await send("POST", "/api/v2/admin/businesses", owner.key, { name: "X Dental", category: "dentist", city: "mumbai-in" })).status).toBe(403);
    expect(await db().$count(businesses)).toBe(before);
  });
});
