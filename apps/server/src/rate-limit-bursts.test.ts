import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, rateLimitCounters } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "@directory/api/testing";
import { startAnotherInstance, startTestServer, type TestServer } from "./testing";

/**
 * Issue 38, finding 1: bursts from one address spread over two instances on one database. On
 * PostgreSQL the second instance has its own connection pool, as a second server process would.
 */
const LIMITS = { anonymousPerDay: 500, openPerMinute: 40 };
const IN_FLIGHT = 100;

let database: TestDatabase;
let instances: TestServer[];
let slug: string;

/** Sends `count` GETs from one address, alternating instances, IN_FLIGHT at a time; returns the statuses. */
async function burst(path: string, address: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  async function sender(): Promise<void> {
    while (next < count) {
      const instance = instances[next++ % instances.length]!;
      const response = await fetch(`${instance.url}${path}`, { headers: { "x-forwarded-for": address } });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  return statuses;
}

/** The stored counts of one address under one policy, one per window the burst touched. */
async function storedCounts(policy: string, address: string): Promise<number[]> {
  const rows = await database.db
    .select({ hits: rateLimitCounters.hits })
    .from(rateLimitCounters)
    .where(and(eq(rateLimitCounters.bucket, `${policy}|ip:${address}`)));
  return rows.map((row) => row.hits);
}

/**
 * Exactly the limit is admitted in each window, and every admitted call is counted. A burst that
 * happens to straddle the window's end may be admitted in both windows; each still holds its limit.
 */
function expectExact(statuses: number[], counts: number[], limit: number): void {
  const admitted = statuses.filter((status) => status === 200).length;
  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  for (const count of counts) expect(count).toBeLessThanOrEqual(limit);
  expect(admitted).toBe(counts.reduce((sum, count) => sum + count, 0));
  if (counts.length === 1) expect(admitted).toBe(limit);
}

// PostgreSQL only: on PGlite the two instances share its one connection, so nothing races across them.
describe.skipIf(!process.env.TEST_DATABASE_URL)("anonymous limits hold exactly across two instances under a burst (needs TEST_DATABASE_URL)", () => {
  beforeAll(async () => {
    database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
    const first = await startTestServer({ database, rateLimits: LIMITS, trustProxyHops: 1 });
    instances = [first, await startAnotherInstance(database, { rateLimits: LIMITS, trustProxyHops: 1 })];
    const [row] = await database.db
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(sql`status = 'active' and subscription_expires_at is null`)
      .limit(1);
    slug = row!.slug;
  });
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close();
    await database?.destroy();
  });

  it("1,500 v2 calls from one address admit exactly the daily limit of 500", async () => {
    const address = "198.51.100.21";
    const statuses = await burst(`/api/v2/entity-profile?slug=${slug}`, address, 1_500);
    expectExact(statuses, await storedCounts("anonymous-daily", address), LIMITS.anonymousPerDay);
  });

  it("1,000 calls on an open route from one address admit exactly the per-minute limit of 40", async () => {
    const address = "198.51.100.22";
    const statuses = await burst(`/business/${slug}/agent.json`, address, 1_000);
    expectExact(statuses, await storedCounts("anonymous-minute", address), LIMITS.openPerMinute);
  });
});
