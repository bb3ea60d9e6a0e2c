import { and, asc, count, desc, eq, isNull, notInArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, categories, cities, claims, outboxEvents, slugHistory } from "@directory/db";
import { createDirectoryClient, directoryErrorOf } from "@directory/sdk";
import { getJson, startTestServer, type JsonBody, type TestServer } from "./testing";

let server: TestServer;
let developerKey: string;
let partnerKey: string;
beforeAll(async () => {
  server = await startTestServer();
  developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
  partnerKey = (await createApiKey(server.database.db, { kind: "partner" })).key;
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.database.db;
const admin = () => createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey });

interface Target {
  id: string;
  slug: string;
  name: string;
  categorySlug: string;
  categoryName: string;
  cityName: string;
}

const used = new Set<string>();
const usedSearches = new Set<string>();

async function searchListings(target: Target): Promise<JsonBody[]> {
  const query = new URLSearchParams({ category: target.categoryName, city: target.cityName, limit: "10" });
  const { status, body } = await getJson(server.url, `/api/assistant-plugin?${query}`);
  expect(status).toBe(200);
  return body.businesses as JsonBody[];
}

async function inSearch(target: Target): Promise<boolean> {
  return (await searchListings(target)).some((listing) => listing.id === target.id);
}

/** Walks the partner feed filtered to the target's category; every id once, and the total. */
async function feedOf(target: Target): Promise<{ ids: Set<string>; total: number; locations: Map<string, JsonBody> }> {
  const locations = new Map<string, JsonBody>();
  let cursor: string | null = null;
  let total = -1;
  do {
    const query = new URLSearchParams({ category: target.categorySlug, limit: "500" });
    if (cursor) query.set("cursor", cursor);
    const { status, body } = await getJson(server.url, `/api/v2/partner-feed?${query}`, { authorization: `Bearer ${partnerKey}` });
    expect(status, JSON.stringify(body)).toBe(200);
    if (total === -1) total = body.total;
    for (const location of body.locations as JsonBody[]) {
      expect(locations.has(location.identifier)).toBe(false);
      locations.set(location.identifier, location);
    }
    cursor = body.nextCursor;
  } while (cursor !== null);
  expect(locations.size).toBe(total);
  return { ids: new Set(locations.keys()), total, locations };
}

async function statusesOf(slug: string): Promise<{ profile: number; agent: number }> {
  const [profile, agent] = await Promise.all([
    getJson(server.url, `/api/v2/entity-profile?slug=${encodeURIComponent(slug)}`),
    getJson(server.url, `/business/${encodeURIComponent(slug)}/agent.json`),
  ]);
  return { profile: profile.status, agent: agent.status };
}

/**
 * An owner-verified, active, unexpired business that is in the first nine results of the search for
 * its category and city (so both its absence and its presence are observable), one per test.
 */
async function pickTarget(): Promise<Target> {
  const candidates = await db()
    .select({
      id: businesses.id,
      slug: businesses.slug,
      name: businesses.name,
      categorySlug: businesses.categorySlug,
      categoryName: categories.name,
      cityName: cities.name,
    })
    .from(businesses)
    .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(
      and(
        eq(businesses.status, "active"),
        eq(businesses.ownership, "owner_verified"),
        sql`(${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now() + interval '1 day')`,
        used.size > 0 ? notInArray(businesses.id, [...used]) : undefined,
      ),
    )
    .orderBy(asc(businesses.planTier), desc(businesses.visibilityScore), asc(businesses.name))
    .limit(100);
  for (const candidate of candidates) {
    const search = `${candidate.categorySlug}|${candidate.cityName}`;
    if (usedSearches.has(search)) continue;
    const position = (await searchListings(candidate)).findIndex((listing) => listing.id === candidate.id);
    if (position >= 0 && position < 9) {
      used.add(candidate.id);
      usedSearches.add(search);
      return candidate;
    }
  }
  throw new Error("no owner-verified business among the first nine results of its category and city search");
}

async function outboxOf(businessId: string) {
  return db().select().from(outboxEvents).where(eq(outboxEvents.businessId, businessId)).orderBy(asc(outboxEvents.id));
}

async function outboxTotal(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(outboxEvents);
  return row?.n ?? 0;
}

/** Runs a change and asserts it wrote exactly one entity.updated event for the business, and no other event. */
async function expectOneEvent<T>(businessId: string, change: string, action: () => Promise<T>): Promise<T> {
  const before = await outboxOf(businessId);
  const totalBefore = await outboxTotal();
  const result = await action();
  const after = await outboxOf(businessId);
  expect(after).toHaveLength(before.length + 1);
  expect(await outboxTotal()).toBe(totalBefore + 1);
  const event = after.at(-1)!;
  expect(event.eventType).toBe("entity.updated");
  expect(event.businessId).toBe(businessId);
  expect(event.payload).toMatchObject({ event: "entity.updated", businessId, change });
  return result;
}

/** Runs an action that must not change anything observable in the outbox. */
async function expectNoEvent<T>(action: () => Promise<T>): Promise<T> {
  const totalBefore = await outboxTotal();
  const result = await action();
  expect(await outboxTotal()).toBe(totalBefore);
  return result;
}

async function failureOf(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").not.toBeNull();
  return directoryErrorOf(error);
}

describe("decommission and reactivate", () => {
  it("takes a business out of the profile, agent.json, search and the feed, and brings it back", async () => {
    const target = await pickTarget();
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
    expect(await inSearch(target)).toBe(true);
    const feedBefore = await feedOf(target);
    expect(feedBefore.ids.has(target.id)).toBe(true);

    const summary = await expectOneEvent(target.id, "status", () => admin().lifecycle.decommission.mutate({ slug: target.slug }));
    expect(summary).toMatchObject({ id: target.id, slug: target.slug, status: "inactive", decommissioned: true });

    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });
    const profile = await getJson(server.url, `/api/v2/entity-profile?slug=${target.slug}`);
    expect(profile.body.code).toBe("ENTITY_DECOMMISSIONED");
    expect((await getJson(server.url, `/entity/${target.id}?format=json`)).status).toBe(410);
    expect(await inSearch(target)).toBe(false);
    const feedGone = await feedOf(target);
    expect(feedGone.ids.has(target.id)).toBe(false);
    expect(feedGone.total).toBe(feedBefore.total - 1);

    // Decommissioning it again is not a change: no second event.
    const again = await expectNoEvent(() => admin().lifecycle.decommission.mutate({ slug: target.slug }));
    expect(again).toMatchObject({ status: "inactive", decommissioned: true });

    const back = await expectOneEvent(target.id, "status", () => admin().lifecycle.reactivate.mutate({ slug: target.slug }));
    expect(back).toMatchObject({ id: target.id, status: "active", decommissioned: false });
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
    expect(await inSearch(target)).toBe(true);
    const feedBack = await feedOf(target);
    expect(feedBack.ids.has(target.id)).toBe(true);
    expect(feedBack.total).toBe(feedBefore.total);
  });
});

describe("an expired subscription", () => {
  it("is 410 until reactivated with a renewal; reactivating without one is a 409", async () => {
    const target = await pickTarget();
    const feedBefore = await feedOf(target);
    await db()
      .update(businesses)
      .set({ subscriptionExpiresAt: new Date(Date.now() - 24 * 3600 * 1000) })
      .where(eq(businesses.id, target.id));

    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });
    expect(await inSearch(target)).toBe(false);
    const feedGone = await feedOf(target);
    expect(feedGone.ids.has(target.id)).toBe(false);
    expect(feedGone.total).toBe(feedBefore.total - 1);

    const conflict = await expectNoEvent(() => failureOf(admin().lifecycle.reactivate.mutate({ slug: target.slug })));
    expect(conflict).toMatchObject({ status: 409, code: "CONFLICT", error: expect.stringContaining("subscriptionExpiresAt") });
    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });

    const past = new Date(Date.now() - 3600 * 1000).toISOString();
    const inThePast = await expectNoEvent(() => failureOf(admin().lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: past })));
    expect(inThePast).toMatchObject({ status: 400, code: "INVALID_INPUT" });
    const notADate = await expectNoEvent(() => failureOf(admin().lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: "next year" })));
    expect(notADate).toMatchObject({ status: 400, code: "INVALID_INPUT" });
    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });

    const renewUntil = new Date(Date.now() + 30 * 24 * 3600 * 1000);
    const renewed = await expectOneEvent(target.id, "subscription", () =>
      admin().lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: renewUntil.toISOString() }),
    );
    expect(renewed).toMatchObject({ id: target.id, status: "active", decommissioned: false, subscriptionExpiresAt: renewUntil.toISOString() });
    const [row] = await db().select({ expiresAt: businesses.subscriptionExpiresAt }).from(businesses).where(eq(businesses.id, target.id));
    expect(row?.expiresAt?.toISOString()).toBe(renewUntil.toISOString());

    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
    expect(await inSearch(target)).toBe(true);
    const feedBack = await feedOf(target);
    expect(feedBack.ids.has(target.id)).toBe(true);
    expect(feedBack.total).toBe(feedBefore.total);
  });

  it("of a decommissioned business needs the renewal too, and one call brings it back", async () => {
    const target = await pickTarget();
    await expectOneEvent(target.id, "status", () => admin().lifecycle.decommission.mutate({ slug: target.slug }));
    await db()
      .update(businesses)
      .set({ subscriptionExpiresAt: new Date(Date.now() - 3600 * 1000) })
      .where(eq(businesses.id, target.id));
    const conflict = await expectNoEvent(() => failureOf(admin().lifecycle.reactivate.mutate({ slug: target.slug })));
    expect(conflict).toMatchObject({ status: 409, code: "CONFLICT" });
    expect(await statusesOf(target.slug)).toEqual({ profile: 410, agent: 410 });

    const renewUntil = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const back = await expectOneEvent(target.id, "subscription", () =>
      admin().lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: renewUntil }),
    );
    expect(back).toMatchObject({ status: "active", decommissioned: false, subscriptionExpiresAt: renewUntil });
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
    expect(await inSearch(target)).toBe(true);
    expect((await feedOf(target)).ids.has(target.id)).toBe(true);
  });
});

describe("rename", () => {
  it("keeps the id and slug, makes the new name a current admin-verified claim, and keeps the old one in history", async () => {
    const target = await pickTarget();
    const [oldClaim] = await db()
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, target.id), eq(claims.property, "name"), isNull(claims.supersededAt)));
    expect(oldClaim?.value).toBe(target.name);
    const byIdBefore = await getJson(server.url, `/entity/${target.id}?format=json`);
    expect(byIdBefore.body.identity.name).toBe(target.name);

    const newName = `${target.name} (renamed)`;
    const summary = await expectOneEvent(target.id, "claims", () => admin().lifecycle.rename.mutate({ slug: target.slug, name: newName }));
    expect(summary).toMatchObject({ id: target.id, slug: target.slug, name: newName, status: "active", decommissioned: false });
    expect((await outboxOf(target.id)).at(-1)?.payload).toMatchObject({ properties: ["name"] });

    const byId = await getJson(server.url, `/entity/${target.id}?format=json`);
    expect(byId.status).toBe(200);
    expect(byId.body.identity).toMatchObject({ id: target.id, slug: target.slug, name: newName });

    const profile = await getJson(server.url, `/api/v2/entity-profile?slug=${target.slug}`);
    expect(profile.status).toBe(200);
    expect(profile.body.identity).toMatchObject({ id: target.id, slug: target.slug, name: newName });
    expect(profile.body.structuredData.name).toBe(newName);
    const currentNames = (profile.body.claims as JsonBody[]).filter((c) => c.property === "name");
    expect(currentNames).toHaveLength(1);
    const newClaim = currentNames[0];
    expect(newClaim).toMatchObject({ value: newName, verification: "admin_verified", supersededAt: null, supersededBy: null });
    expect(newClaim.id).not.toBe(oldClaim!.id);

    const anonymousHistory = await getJson(server.url, `/api/v2/entity-profile?slug=${target.slug}&history=true`);
    expect(anonymousHistory.status).toBe(401);
    const history = await getJson(server.url, `/api/v2/entity-profile?slug=${target.slug}&history=true`, { authorization: `Bearer ${developerKey}` });
    expect(history.status).toBe(200);
    const nameClaims = (history.body.claims as JsonBody[]).filter((c) => c.property === "name");
    const superseded = nameClaims.find((c) => c.id === oldClaim!.id);
    expect(superseded).toMatchObject({ value: target.name, supersededBy: newClaim.id });
    expect(superseded.supersededAt).toEqual(expect.any(String));
    expect(nameClaims.find((c) => c.id === newClaim.id)).toMatchObject({ value: newName, supersededAt: null });

    const agent = await getJson(server.url, `/business/${target.slug}/agent.json`);
    expect(agent.status).toBe(200);
    expect(agent.body.entity.name).toBe(newName);
    const listing = (await searchListings(target)).find((l) => l.id === target.id);
    expect(listing?.name).toBe(newName);
    expect((await feedOf(target)).locations.get(target.id)?.name).toBe(newName);

    // The same name again is not a change: no claim, no event.
    await expectNoEvent(() => admin().lifecycle.rename.mutate({ slug: target.slug, name: newName }));
    const [currentCount] = await db()
      .select({ n: count() })
      .from(claims)
      .where(and(eq(claims.businessId, target.id), eq(claims.property, "name"), isNull(claims.supersededAt)));
    expect(currentCount?.n).toBe(1);
  });
});

describe("change of slug", () => {
  it("serves the new slug, keeps the old one resolving to the same id, and leaves /entity/{id} unchanged", async () => {
    const target = await pickTarget();
    const oldSlug = target.slug;
    const newSlug = `${oldSlug}-moved`;
    const byIdBefore = await getJson(server.url, `/entity/${target.id}?format=json`);
    const agentBefore = await getJson(server.url, `/business/${oldSlug}/agent.json`);

    const summary = await expectOneEvent(target.id, "slug", () => admin().lifecycle.changeSlug.mutate({ slug: oldSlug, newSlug }));
    expect(summary).toMatchObject({ id: target.id, slug: newSlug, name: target.name, status: "active" });
    expect((await outboxOf(target.id)).at(-1)?.payload).toMatchObject({ slug: newSlug });

    for (const slug of [newSlug, oldSlug]) {
      const profile = await getJson(server.url, `/api/v2/entity-profile?slug=${slug}`);
      expect(profile.status, slug).toBe(200);
      expect(profile.body.identity, slug).toMatchObject({ id: target.id, slug: newSlug, name: target.name });
      const agent = await getJson(server.url, `/business/${slug}/agent.json`);
      expect(agent.status, slug).toBe(200);
      expect(agent.body.entity.name).toBe(target.name);
      expect(agent.body.contact).toEqual(agentBefore.body.contact);
    }
    const [history] = await db().select().from(slugHistory).where(eq(slugHistory.slug, oldSlug));
    expect(history?.businessId).toBe(target.id);

    const byId = await getJson(server.url, `/entity/${target.id}?format=json`);
    expect(byId.status).toBe(200);
    expect(byId.body.identity).toEqual({ ...byIdBefore.body.identity, slug: newSlug, updatedAt: byId.body.identity.updatedAt });
    expect(byId.body.claims).toEqual(byIdBefore.body.claims);
    expect(byId.body.contact).toEqual(byIdBefore.body.contact);

    const listing = (await searchListings(target)).find((l) => l.id === target.id);
    expect(listing?.profileUrl).toBe(`http://directory.test/business/${newSlug}`);
    expect((await feedOf(target)).locations.get(target.id)?.sameAs).toEqual([`http://directory.test/business/${newSlug}`]);

    // Back to the old slug: allowed (it is its own), and the intermediate one keeps resolving.
    await expectOneEvent(target.id, "slug", () => admin().lifecycle.changeSlug.mutate({ slug: newSlug, newSlug: oldSlug }));
    for (const slug of [oldSlug, newSlug]) {
      const profile = await getJson(server.url, `/api/v2/entity-profile?slug=${slug}`);
      expect(profile.body.identity, slug).toMatchObject({ id: target.id, slug: oldSlug });
    }
  });

  it("refuses a slug used by another business (now or before), an invalid slug, and an unknown business", async () => {
    const target = await pickTarget();
    const [other] = await db()
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(and(sql`${businesses.id} <> ${target.id}`, eq(businesses.status, "active")))
      .limit(1);
    const taken = await expectNoEvent(() => failureOf(admin().lifecycle.changeSlug.mutate({ slug: target.slug, newSlug: other!.slug })));
    expect(taken).toMatchObject({ status: 409, code: "CONFLICT" });

    // A slug another business used to have still resolves to that business, so it is taken too.
    const retiredSlug = `${other!.slug}-former`;
    await expectOneEvent(other!.id, "slug", () => admin().lifecycle.changeSlug.mutate({ slug: other!.slug, newSlug: retiredSlug }));
    await expectOneEvent(other!.id, "slug", () => admin().lifecycle.changeSlug.mutate({ slug: retiredSlug, newSlug: other!.slug }));
    const retired = await expectNoEvent(() => failureOf(admin().lifecycle.changeSlug.mutate({ slug: target.slug, newSlug: retiredSlug })));
    expect(retired).toMatchObject({ status: 409, code: "CONFLICT" });

    for (const newSlug of ["Bad Slug!", "UPPER", "double--hyphen", "-leading", "trailing-"]) {
      const invalid = await expectNoEvent(() => failureOf(admin().lifecycle.changeSlug.mutate({ slug: target.slug, newSlug })));
      expect(invalid, newSlug).toMatchObject({ status: 400, code: "INVALID_INPUT" });
    }

    const unknown = await expectNoEvent(() => failureOf(admin().lifecycle.changeSlug.mutate({ slug: "no-such-business-anywhere", newSlug: "fresh-slug" })));
    expect(unknown).toMatchObject({ status: 404, code: "NOT_FOUND" });
    const unknownCalls = await expectNoEvent(() =>
      Promise.all([
        failureOf(admin().lifecycle.decommission.mutate({ slug: "no-such-business-anywhere" })),
        failureOf(admin().lifecycle.reactivate.mutate({ slug: "no-such-business-anywhere" })),
        failureOf(admin().lifecycle.rename.mutate({ slug: "no-such-business-anywhere", name: "Nobody" })),
      ]),
    );
    for (const failure of unknownCalls) expect(failure).toMatchObject({ status: 404, code: "NOT_FOUND" });

    const [row] = await db().select({ slug: businesses.slug }).from(businesses).where(eq(businesses.id, target.id));
    expect(row?.slug).toBe(target.slug);
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
  });
});

describe("lifecycle authorization", () => {
  it("is FORBIDDEN for developer and partner keys and UNAUTHORIZED without a key, changing nothing", async () => {
    const target = await pickTarget();
    const callers = [
      { key: developerKey, status: 403, code: "FORBIDDEN" },
      { key: partnerKey, status: 403, code: "FORBIDDEN" },
      { key: undefined, status: 401, code: "UNAUTHORIZED" },
    ];
    const totalBefore = await outboxTotal();
    for (const { key, status, code } of callers) {
      const client = createDirectoryClient({ baseUrl: server.url, apiKey: key });
      const failures = await Promise.all([
        failureOf(client.lifecycle.decommission.mutate({ slug: target.slug })),
        failureOf(client.lifecycle.reactivate.mutate({ slug: target.slug, subscriptionExpiresAt: new Date(Date.now() + 86_400_000).toISOString() })),
        failureOf(client.lifecycle.rename.mutate({ slug: target.slug, name: "Hijacked" })),
        failureOf(client.lifecycle.changeSlug.mutate({ slug: target.slug, newSlug: "hijacked" })),
      ]);
      for (const failure of failures) expect(failure, key ?? "anonymous").toMatchObject({ status, code });
    }
    expect(await outboxTotal()).toBe(totalBefore);
    const [row] = await db().select().from(businesses).where(eq(businesses.id, target.id));
    expect(row).toMatchObject({ slug: target.slug, name: target.name, status: "active" });
    expect(await statusesOf(target.slug)).toEqual({ profile: 200, agent: 200 });
  });
});

describe("concurrent lifecycle changes", () => {
  it("a decommission submitted twice at once is one change: one event", async () => {
    const target = await pickTarget();
    const before = (await outboxOf(target.id)).length;
    const [first, second] = await Promise.all([
      admin().lifecycle.decommission.mutate({ slug: target.slug }),
      admin().lifecycle.decommission.mutate({ slug: target.slug }),
    ]);
    expect(first).toMatchObject({ status: "inactive", decommissioned: true });
    expect(second).toMatchObject({ status: "inactive", decommissioned: true });
    const events = (await outboxOf(target.id)).slice(before);
    expect(events.map((e) => e.payload.change)).toEqual(["status"]);
    await admin().lifecycle.reactivate.mutate({ slug: target.slug });
  });

  it("two renames of one business at once never fail with a 500 and leave one current name claim that the listing matches", async () => {
    const target = await pickTarget();
    const before = (await outboxOf(target.id)).length;
    const outcomes = await Promise.allSettled([
      admin().lifecycle.rename.mutate({ slug: target.slug, name: `${target.name} East` }),
      admin().lifecycle.rename.mutate({ slug: target.slug, name: `${target.name} West` }),
    ]);
    const failures = outcomes.filter((o) => o.status === "rejected").map((o) => directoryErrorOf(o.reason));
    for (const failure of failures) expect(failure).toMatchObject({ status: 409, code: "CONFLICT" });
    const current = await db()
      .select()
      .from(claims)
      .where(and(eq(claims.businessId, target.id), eq(claims.property, "name"), isNull(claims.supersededAt)));
    expect(current).toHaveLength(1);
    const [row] = await db().select({ name: businesses.name }).from(businesses).where(eq(businesses.id, target.id));
    expect(row?.name).toBe(current[0]!.value);
    expect((await outboxOf(target.id)).length - before).toBe(outcomes.length - failures.length);
  });

  it("two businesses moved to the same free slug at once: one wins, the other is a 409", async () => {
    const [a, b] = await db()
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.status, "active"), used.size > 0 ? notInArray(businesses.id, [...used]) : undefined))
      .orderBy(asc(businesses.slug))
      .limit(2);
    used.add(a!.id).add(b!.id);
    const contested = `${a!.slug}-contested`;
    const totalBefore = await outboxTotal();
    const outcomes = await Promise.allSettled([
      admin().lifecycle.changeSlug.mutate({ slug: a!.slug, newSlug: contested }),
      admin().lifecycle.changeSlug.mutate({ slug: b!.slug, newSlug: contested }),
    ]);
    const failures = outcomes.filter((o) => o.status === "rejected").map((o) => directoryErrorOf(o.reason));
    expect(failures).toEqual([expect.objectContaining({ status: 409, code: "CONFLICT" })]);
    expect(await outboxTotal()).toBe(totalBefore + 1);
    const owners = await db().select({ id: businesses.id }).from(businesses).where(eq(businesses.slug, contested));
    expect(owners).toHaveLength(1);
  });
});
