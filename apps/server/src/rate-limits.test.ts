import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, rateLimitCounters } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "@directory/api/testing";
import { createDirectoryClient } from "@directory/sdk";
import { type ErrorBody, getJson, type RateLimitedBody, startAnotherInstance, startTestServer, type TestServer } from "./testing";

const LIMITS = { anonymousPerDay: 5, keyedPerMonth: 8 };

let database: TestDatabase;
let first: TestServer;
let second: TestServer;
let slug: string;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
  // Two app instances on one database: the limits must hold across both.
  first = await startTestServer({ database, rateLimits: LIMITS });
  second = await startAnotherInstance(database, { rateLimits: LIMITS, trustProxyHops: 1 });
  const [row] = await database.db
    .select({ slug: businesses.slug })
    .from(businesses)
    .where(sql`status = 'active' and subscription_expires_at is null`)
    .limit(1);
  slug = row!.slug;
});
afterAll(async () => {
  await first?.close();
  await second?.close();
  await database?.destroy();
});

async function resetCounters() {
  await database.db.delete(rateLimitCounters);
}

describe("anonymous daily limit (v2 routes)", () => {
  it("admits the limit, then answers 429 with Retry-After, RateLimit headers and a body that says which limit and when it resets", async () => {
    await resetCounters();
    for (let i = 0; i < LIMITS.anonymousPerDay; i++) {
      const ok = await getJson(first.url, `/api/v2/entity-profile?slug=${slug}`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit")).toBe(`"anonymous-daily";r=${LIMITS.anonymousPerDay - i - 1};t=${ok.headers.get("ratelimit")?.split("t=")[1]}`);
      expect(ok.headers.get("ratelimit-policy")).toBe(`"anonymous-daily";q=${LIMITS.anonymousPerDay};w=86400`);
    }
    const refused = await getJson<RateLimitedBody>(first.url, `/api/v2/entity-profile?slug=${slug}`);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(refused.body).toMatchObject({ code: "RATE_LIMITED", limit: LIMITS.anonymousPerDay, policy: "anonymous-daily" });
    expect(refused.body.error).toMatch(/anonymous daily limit/);
    expect(new Date(refused.body.resetAt).getTime()).toBe(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1));
    // The lookup route shares the bucket; the assistant plugin and agent.json are not v2 routes.
    expect((await getJson(first.url, "/api/v2/businesses?category=dentist&city=Mumbai")).status).toBe(429);
    expect((await getJson(first.url, "/api/assistant-plugin?category=dentist&city=Mumbai")).status).toBe(200);
    expect((await getJson(first.url, `/business/${slug}/agent.json`)).status).toBe(200);
  });

  it("ignores a forged X-Forwarded-For when no proxy is trusted", async () => {
    await resetCounters();
    for (let i = 0; i < LIMITS.anonymousPerDay; i++) {
      await getJson(first.url, `/api/v2/entity-profile?slug=${slug}`, { "x-forwarded-for": `198.51.100.${i}` });
    }
    const forged = await getJson(first.url, `/api/v2/entity-profile?slug=${slug}`, { "x-forwarded-for": "203.0.113.99" });
    expect(forged.status).toBe(429);
  });

  it("with one trusted hop, buckets by the address that proxy saw, not by what the client prepended", async () => {
    await resetCounters();
    const viaProxy = (chain: string) => getJson(second.url, `/api/v2/entity-profile?slug=${slug}`, { "x-forwarded-for": chain });
    for (let i = 0; i < LIMITS.anonymousPerDay; i++) expect((await viaProxy(`10.9.9.${i}, 192.0.2.10`)).status).toBe(200);
    expect((await viaProxy("10.0.0.1, 192.0.2.10")).status).toBe(429);
    expect((await viaProxy("192.0.2.11")).status).toBe(200);
  });

  it("lets anonymous requests through when the counter store fails (fail open) and refuses keyed ones (fail closed)", async () => {
    await resetCounters();
    const { key } = await createApiKey(database.db, { kind: "developer" });
    await database.db.execute(sql`alter table rate_limit_counters rename to rate_limit_counters_offline`);
    try {
      expect((await getJson(first.url, `/api/v2/entity-profile?slug=${slug}`)).status).toBe(200);
      const keyed = await getJson<ErrorBody>(first.url, `/api/v2/entity-profile?slug=${slug}`, { authorization: `Bearer ${key}` });
      expect(keyed.status).toBe(503);
      expect(keyed.body.code).toBe("UNAVAILABLE");
    } finally {
      await database.db.execute(sql`alter table rate_limit_counters_offline rename to rate_limit_counters`);
    }
  });
});

describe("keyed monthly quota", () => {
  it("admits exactly N of 2N concurrent requests spread over two instances", async () => {
    const { key } = await createApiKey(database.db, { kind: "developer" });
    const requests = Array.from({ length: LIMITS.keyedPerMonth * 2 }, (_, i) =>
      getJson(i % 2 === 0 ? first.url : second.url, `/api/v2/entity-profile?slug=${slug}`, { authorization: `Bearer ${key}` }),
    );
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMITS.keyedPerMonth);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMITS.keyedPerMonth);
  });

  it("reports the remaining quota on success and the monthly reset on refusal", async () => {
    const { key } = await createApiKey(database.db, { kind: "developer" });
    const ok = await getJson(first.url, "/api/assistant-plugin?category=dentist&city=Mumbai", { authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit")).toMatch(new RegExp(`^"key-monthly";r=${LIMITS.keyedPerMonth - 1};t=\\d+$`));
    expect(ok.headers.get("ratelimit-policy")).toMatch(new RegExp(`^"key-monthly";q=${LIMITS.keyedPerMonth};w=\\d+$`));
    for (let i = 1; i < LIMITS.keyedPerMonth; i++) await getJson(first.url, `/business/${slug}/agent.json`, { authorization: `Bearer ${key}` });
    const refused = await getJson<RateLimitedBody>(first.url, "/api/assistant-plugin?category=dentist&city=Mumbai", { authorization: `Bearer ${key}` });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "RATE_LIMITED", policy: "key-monthly", limit: LIMITS.keyedPerMonth });
    const now = new Date();
    expect(refused.body.resetAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
  });

  it("counts every call of a tRPC batch", async () => {
    const { key } = await createApiKey(database.db, { kind: "developer" });
    const client = createDirectoryClient({ baseUrl: first.url, apiKey: key });
    const calls = Array.from({ length: LIMITS.keyedPerMonth + 2 }, () =>
      client.search.searchBusinesses.query({ category: "dentist", city: "Mumbai", limit: 1 }),
    );
    const results = await Promise.allSettled(calls);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(LIMITS.keyedPerMonth);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(2);
  });

  it("charges only what was served: a refused call (404, 400, 403) leaves the remaining quota as it was", async () => {
    const { key } = await createApiKey(database.db, { kind: "developer" });
    const auth = { authorization: `Bearer ${key}` };
    const remaining = (answer: { headers: Headers }) => Number(/;r=(\d+);/.exec(answer.headers.get("ratelimit") ?? "")?.[1]);
    const served = await getJson(first.url, `/api/v2/entity-profile?slug=${slug}`, auth);
    expect(served.status).toBe(200);
    expect(remaining(served)).toBe(LIMITS.keyedPerMonth - 1);
    const refusals = [
      ["/api/v2/entity-profile?slug=no-such-business-anywhere", 404],
      ["/api/v2/businesses?category=dentist&city=Mumbai&limit=many", 400],
      ["/api/v2/businesses?category=no-such-category&city=Mumbai", 404],
      ["/api/v2/partner-feed?limit=1", 403],
    ] as const;
    for (const [path, status] of refusals) {
      const refused = await getJson<ErrorBody>(first.url, path, auth);
      expect(refused.status, path).toBe(status);
      expect(refused.body.code, path).toBeTypeOf("string");
    }
    const next = await getJson(second.url, `/api/v2/entity-profile?slug=${slug}`, auth);
    expect(next.status).toBe(200);
    expect(remaining(next)).toBe(LIMITS.keyedPerMonth - 2);
  });

  it("never limits admin keys", async () => {
    for (let i = 0; i < LIMITS.keyedPerMonth + 2; i++) {
      expect((await getJson(first.url, `/api/v2/entity-profile?slug=${slug}`, { authorization: `Bearer ${first.adminKey}` })).status).toBe(200);
    }
  });
});
