import { TRPCError } from "@trpc/server";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backfillListingFreshness, businesses, claims } from "@directory/db";
import { writeClaims } from "../../services/claims/claim-writes";
import { toPublicError } from "../../errors";
import { createApiKey } from "../../services/access/api-keys";
import { USEFUL_LIFE_DAYS } from "../../services/claims/freshness";
import { anonymousCaller, keyedCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

/** Issue 25 items 1 to 3 on the entity profile: operating status, staleness, and asOf. */

let database: TestDatabase;
let adminKey: string;
let developerKey: string;
beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  adminKey = (await createApiKey(database.db, { kind: "admin" })).key;
  developerKey = (await createApiKey(database.db, { kind: "developer" })).key;
});
afterAll(async () => {
  await database?.destroy();
});

let taken = 0;
async function activeBusiness() {
  const rows = await database.db
    .select({ id: businesses.id, slug: businesses.slug, categorySlug: businesses.categorySlug, createdAt: businesses.createdAt })
    .from(businesses)
    .where(SERVABLE)
    .orderBy(asc(businesses.slug));
  return rows[taken++]!;
}

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return toPublicError(error as TRPCError);
}

describe("freshness", () => {
  it("every claim carries staleAfter = observedAt + its property's useful life, and stale once past it; the profile counts them", async () => {
    const business = await activeBusiness();
    // An hours claim observed a year ago is past its 180 days; make the phone fresh.
    const yearAgo = new Date(Date.now() - 365 * 86_400_000);
    await database.db
      .update(claims)
      .set({ observedAt: yearAgo })
      .where(and(eq(claims.businessId, business.id), eq(claims.property, "openingHours"), isNull(claims.supersededAt)));
    await database.db
      .update(claims)
      .set({ observedAt: new Date() })
      .where(and(eq(claims.businessId, business.id), eq(claims.property, "phone"), isNull(claims.supersededAt)));
    const profile = await anonymousCaller(database.db).entities.getEntityProfile({ slug: business.slug });
    const hours = profile.claims.find((claim) => claim.property === "openingHours")!;
    expect(hours.stale).toBe(true);
    expect(new Date(hours.staleAfter).getTime()).toBe(yearAgo.getTime() + USEFUL_LIFE_DAYS.openingHours * 86_400_000);
    expect(profile.claims.find((claim) => claim.property === "phone")!.stale).toBe(false);
    expect(profile.freshness.staleCount).toBe(profile.claims.filter((claim) => claim.stale).length);
    expect(profile.freshness.staleCount).toBeGreaterThanOrEqual(1);
    expect(profile.operatingStatus).toEqual({ status: "open" });
    // agent.json names the stale facts too, as the MCP profile's standing line does.
    const agent = await anonymousCaller(database.db).entities.getAgentProfile({ slug: business.slug });
    const named = /Stale, past their useful life: ([^(]+) \(say how old, or check before relying on them\)\./.exec(agent.agentInstructions)?.[1];
    expect(named?.split(", ").sort()).toEqual([...new Set(profile.claims.filter((claim) => claim.stale).map((claim) => claim.property))].sort());
    await database.db
      .update(claims)
      .set({ observedAt: new Date() })
      .where(and(eq(claims.businessId, business.id), isNull(claims.supersededAt)));
    const fresh = await anonymousCaller(database.db).entities.getAgentProfile({ slug: business.slug });
    expect(fresh.agentInstructions).toMatch(/^No fact here is stale \(past its useful life\)\. /);
  });
});

describe("a listing's freshness", () => {
  /** The business's listing as a category search in its city shows it. */
  async function listingOf(business: { id: string; categorySlug: string }) {
    const [row] = await database.db.select({ cityId: businesses.cityId }).from(businesses).where(eq(businesses.id, business.id));
    const caller = anonymousCaller(database.db);
    const city = await database.db.execute(sql`select name from cities where id = ${row!.cityId}`);
    const cityName = (city as { rows?: { name: string }[] }).rows?.[0]?.name ?? (city as { name: string }[])[0]!.name;
    const page = await caller.search.lookupBusinesses({ category: business.categorySlug, city: cityName, limit: 50 });
    return page.businesses.find((listing) => listing.id === business.id)!;
  }

  it("says what the profile says: lastVerifiedAt and staleCount, kept by the claim write path, and refilled by the backfill", async () => {
    const business = await activeBusiness();
    const caller = anonymousCaller(database.db);
    const check = async () => {
      const [listing, profile] = await Promise.all([listingOf(business), caller.entities.getEntityProfile({ slug: business.slug })]);
      expect(listing.staleCount).toBe(profile.freshness.staleCount);
      expect(listing.lastVerifiedAt && new Date(listing.lastVerifiedAt).getTime()).toBe(
        profile.freshness.lastVerifiedAt && new Date(profile.freshness.lastVerifiedAt).getTime(),
      );
      return listing;
    };
    await check();
    // Facts aged behind the write path's back: the backfill (migrate() runs it) projects them again.
    const yearsAgo = new Date(Date.now() - 800 * 86_400_000);
    await database.db
      .update(claims)
      .set({ observedAt: yearsAgo })
      .where(and(eq(claims.businessId, business.id), isNull(claims.supersededAt)));
    await database.db.update(businesses).set({ factsStaleAfter: null, lastVerifiedAt: null }).where(eq(businesses.id, business.id));
    expect(await backfillListingFreshness(database.db)).toBe(1);
    const aged = await check();
    expect(aged.staleCount).toBeGreaterThanOrEqual(10);
    // An owner states the phone again: one stale fact fewer, and vouched for now.
    const before = Date.now();
    const [row] = await database.db.select().from(businesses).where(eq(businesses.id, business.id));
    await database.db.transaction((tx) =>
      writeClaims(tx, [
        { business: row!, claims: [{ property: "phone", value: "+14155550123", source: "owner:test", confidence: 0.8, verification: "self_reported" }] },
      ]),
    );
    const edited = await check();
    expect(edited.staleCount).toBe(aged.staleCount - 1);
    expect(new Date(edited.lastVerifiedAt!).getTime()).toBeGreaterThanOrEqual(before - 1_000);
  });
});

describe("freshness in the JSON-LD", () => {
  it("the partner feed and the profile's structuredData say lastVerifiedAt and firstFactStaleAt alike, as PropertyValues", async () => {
    const partner = await createApiKey(database.db, { kind: "partner", label: "freshness test" });
    const feed = await keyedCaller(database.db, partner.key).feed.getPartnerFeed({ limit: 20 });
    expect(feed.locations.length).toBeGreaterThan(0);
    const facts = (document: { additionalProperty?: unknown }) =>
      Object.fromEntries(((document.additionalProperty ?? []) as { propertyID: string; value: string }[]).map((fact) => [fact.propertyID, fact.value]));
    for (const location of feed.locations.slice(0, 5)) {
      const [row] = await database.db.select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, location.identifier));
      const profile = await anonymousCaller(database.db).entities.getEntityProfile({ slug: row!.slug });
      expect(facts(location)).toEqual(facts(profile.structuredData));
      const lastVerified = facts(location).lastVerifiedAt;
      expect(lastVerified ? new Date(lastVerified).getTime() : null).toBe(
        profile.freshness.lastVerifiedAt ? new Date(profile.freshness.lastVerifiedAt).getTime() : null,
      );
      const firstStale = Math.min(...profile.claims.filter((claim) => claim.supersededAt === null).map((claim) => new Date(claim.staleAfter).getTime()));
      // The column keeps minutes, rounded up.
      expect(new Date(facts(location).firstFactStaleAt!).getTime() - firstStale).toBeGreaterThanOrEqual(0);
      expect(new Date(facts(location).firstFactStaleAt!).getTime() - firstStale).toBeLessThan(60_000);
    }
  });
});

describe("asOf", () => {
  it("answers the old phone before an owner edit and the new one after; needs a key; before the business existed is 404", async () => {
    const business = await activeBusiness();
    const ownerKey = (await createApiKey(database.db, { kind: "business", businessSlug: business.slug })).key;
    const before = await anonymousCaller(database.db).entities.getEntityProfile({ slug: business.slug });
    const oldPhone = before.contact.phone;
    const between = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await keyedCaller(database.db, ownerKey).owner.updateListing({ phone: "+41 44 999 00 00" });
    const keyed = keyedCaller(database.db, developerKey);
    const then = await keyed.entities.getEntityProfile({ slug: business.slug, asOf: between.toISOString() });
    expect(then.asOf).toBe(between.toISOString());
    expect(then.contact.phone).toBe(oldPhone);
    expect(then.claims.find((claim) => claim.property === "phone")).toMatchObject({ value: oldPhone, supersededAt: null });
    const now = await keyed.entities.getEntityProfile({ slug: business.slug, asOf: new Date().toISOString() });
    expect(now.contact.phone).toBe("+41 44 999 00 00");
    expect(now.claims.find((claim) => claim.property === "phone")).toMatchObject({ value: "+41 44 999 00 00", verification: "self_reported" });

    expect(await refusal(anonymousCaller(database.db).entities.getEntityProfile({ slug: business.slug, asOf: between.toISOString() }))).toMatchObject({
      status: 401,
    });
    const beforeExisting = new Date(business.createdAt.getTime() - 86_400_000).toISOString();
    expect(await refusal(keyed.entities.getEntityProfile({ slug: business.slug, asOf: beforeExisting }))).toMatchObject({ status: 404 });
    expect(await refusal(keyed.entities.getEntityProfile({ slug: business.slug, asOf: "yesterday" }))).toMatchObject({ status: 400 });
  });
});

describe("operating status", () => {
  it("a permanently closed business leaves every servable list, its profile answers 200 with the status; a temporary closure stays findable, marked", async () => {
    const closed = await activeBusiness();
    const admin = keyedCaller(database.db, adminKey);
    const submitted = await anonymousCaller(database.db).corrections.submit({
      slug: closed.slug,
      operatingStatus: { status: "permanently_closed", closedOn: "2026-09-30" },
      evidence: "closing-down notice in the window",
    });
    await admin.corrections.accept({ id: submitted.correctionId! });
    const [servable] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(businesses)
      .where(and(eq(businesses.id, closed.id), SERVABLE));
    expect(servable!.n).toBe(0);
    const profile = await anonymousCaller(database.db).entities.getEntityProfile({ slug: closed.slug });
    expect(profile.operatingStatus).toEqual({ status: "permanently_closed", closedOn: "2026-09-30" });
    const byId = await anonymousCaller(database.db).entities.getEntityById({ id: closed.id });
    expect(byId.operatingStatus.status).toBe("permanently_closed");
    const agent = await anonymousCaller(database.db).entities.getAgentProfile({ slug: closed.slug });
    expect(agent.entity.operatingStatus).toEqual({ status: "permanently_closed", closedOn: "2026-09-30" });
    expect(agent.agentInstructions).toMatch(/^This business closed permanently on 2026-09-30/);
    // An admin may not reactivate the row against the claim, and may still decommission it (410 from then on).
    expect(await refusal(admin.lifecycle.reactivate({ slug: closed.slug }))).toMatchObject({ status: 409 });
    await admin.lifecycle.decommission({ slug: closed.slug });
    expect(await refusal(anonymousCaller(database.db).entities.getEntityProfile({ slug: closed.slug }))).toMatchObject({ status: 410 });

    const paused = await activeBusiness();
    const temporary = await anonymousCaller(database.db).corrections.submit({
      slug: paused.slug,
      operatingStatus: { status: "temporarily_closed", reopensOn: "2027-01-15" },
      evidence: "renovation",
    });
    await admin.corrections.accept({ id: temporary.correctionId! });
    const [still] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(businesses)
      .where(and(eq(businesses.id, paused.id), SERVABLE));
    expect(still!.n).toBe(1);
    expect((await anonymousCaller(database.db).entities.getEntityProfile({ slug: paused.slug })).operatingStatus).toEqual({
      status: "temporarily_closed",
      reopensOn: "2027-01-15",
    });
  });
});
