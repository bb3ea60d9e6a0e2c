import { and, asc, count, desc, eq, notInArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, categories, cities, outboxEvents } from "@directory/db";
import { createDirectoryClient, directoryErrorOf } from "@directory/sdk";
import type { TGetPartnerFeedOutput, TListing, TSearchBusinessesOutput } from "@directory/api/schemas";
import { getJson, startTestServer, type TestServer } from "./testing";

type FeedLocation = TGetPartnerFeedOutput["locations"][number];

/**
 * What the lifecycle tests share: one server per test file with a developer and a partner key, a fresh
 * target business per test, and the observers of its state (profile, agent.json, search, the feed, the outbox).
 */

export let server: TestServer;
export let developerKey: string;
export let partnerKey: string;

/** Starts the server before the calling file's tests and closes it after them. */
export function useLifecycleServer(): void {
  beforeAll(async () => {
    server = await startTestServer();
    developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
    partnerKey = (await createApiKey(server.database.db, { kind: "partner" })).key;
  });
  afterAll(async () => {
    await server?.close();
  });
}

export const db = () => server.database.db;
export const admin = () => createDirectoryClient({ baseUrl: server.url, apiKey: server.adminKey });

interface Target {
  id: string;
  slug: string;
  name: string;
  categorySlug: string;
  categoryName: string;
  cityName: string;
}

export const used = new Set<string>();
const usedSearches = new Set<string>();

export async function searchListings(target: Target): Promise<TListing[]> {
  const query = new URLSearchParams({ category: target.categoryName, city: target.cityName, limit: "10" });
  const { status, body } = await getJson<TSearchBusinessesOutput>(server.url, `/api/assistant-plugin?${query}`);
  expect(status).toBe(200);
  return body.businesses;
}

export async function inSearch(target: Target): Promise<boolean> {
  return (await searchListings(target)).some((listing) => listing.id === target.id);
}

/** Walks the partner feed filtered to the target's category; every id once, and the total. */
export async function feedOf(target: Target): Promise<{ ids: Set<string>; total: number; locations: Map<string, FeedLocation> }> {
  const locations = new Map<string, FeedLocation>();
  let cursor: string | null = null;
  let total = -1;
  do {
    const query = new URLSearchParams({ category: target.categorySlug, limit: "500" });
    if (cursor) query.set("cursor", cursor);
    const { status, body } = await getJson<TGetPartnerFeedOutput>(server.url, `/api/v2/partner-feed?${query}`, { authorization: `Bearer ${partnerKey}` });
    expect(status, JSON.stringify(body)).toBe(200);
    if (total === -1) total = body.total;
    for (const location of body.locations) {
      expect(locations.has(location.identifier)).toBe(false);
      locations.set(location.identifier, location);
    }
    cursor = body.nextCursor;
  } while (cursor !== null);
  expect(locations.size).toBe(total);
  return { ids: new Set(locations.keys()), total, locations };
}

export async function statusesOf(slug: string): Promise<{ profile: number; agent: number }> {
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
export async function pickTarget(): Promise<Target> {
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

export async function outboxOf(businessId: string) {
  return db().select().from(outboxEvents).where(eq(outboxEvents.businessId, businessId)).orderBy(asc(outboxEvents.id));
}

export async function outboxTotal(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(outboxEvents);
  return row?.n ?? 0;
}

/** Runs a change and asserts it wrote exactly one entity.updated event for the business, and no other event. */
export async function expectOneEvent<T>(businessId: string, change: string, action: () => Promise<T>): Promise<T> {
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
export async function expectNoEvent<T>(action: () => Promise<T>): Promise<T> {
  const totalBefore = await outboxTotal();
  const result = await action();
  expect(await outboxTotal()).toBe(totalBefore);
  return result;
}

export async function failureOf(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").not.toBeNull();
  return directoryErrorOf(error);
}
