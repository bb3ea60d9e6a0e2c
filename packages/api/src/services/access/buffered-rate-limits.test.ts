import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitCounters } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { consumeBufferedRateLimit } from "./buffered-rate-limits";
import type { RateLimitPolicy } from "./rate-limits";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await database?.destroy();
});

async function storedHits(bucket: string): Promise<number | undefined> {
  const [row] = await database.db.select({ hits: rateLimitCounters.hits }).from(rateLimitCounters).where(eq(rateLimitCounters.bucket, bucket));
  return row?.hits;
}

const at = (iso: string) => new Date(iso);

describe("fail-open limits admitted from blocks counted ahead", () => {
  it("answers every call with the exact remaining count and writes once a block", async () => {
    const policy = { name: "burst-test", limit: 1_000, window: "day" as const };
    const now = at("2026-11-22T10:00:00.000Z");
    const remaining: number[] = [];
    for (let i = 0; i < 25; i++) remaining.push((await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.1", policy, now })).remaining);
    expect(remaining).toEqual(Array.from({ length: 25 }, (_, i) => 1_000 - i - 1));
    // A block is a twentieth of the limit, counted before any of its calls is admitted.
    expect(await storedHits("burst-test|ip:198.51.100.1")).toBe(50);
  });

  it("never admits more than the limit however many calls race, and every admitted call is in the database", async () => {
    const policy = { name: "race-test", limit: 500, window: "day" as const };
    const start = at("2026-11-22T10:00:00.000Z").getTime();
    const decisions = [];
    // 1,500 calls in waves of 50, each wave a little later, so calls arrive while writes are under way.
    for (let wave = 0; wave < 30; wave++) {
      const calls = Array.from({ length: 50 }, (_, i) =>
        consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.5", policy, now: new Date(start + wave * 100 + i) }),
      );
      decisions.push(...(await Promise.all(calls)));
    }
    expect(decisions.filter((d) => d.allowed)).toHaveLength(500);
    expect(await storedHits("race-test|ip:198.51.100.5")).toBe(500);
  });

  it("counts the last calls of a limit exactly: N admitted, then refusals", async () => {
    const policy = { name: "edge-test", limit: 250, window: "day" as const };
    const now = at("2026-11-22T10:00:00.000Z");
    const decisions = [];
    for (let i = 0; i < 260; i++) decisions.push(await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.2", policy, now }));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(250);
    expect(decisions.slice(250).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
    expect(await storedHits("edge-test|ip:198.51.100.2")).toBe(250);
  });

  it("loses no count when a write fails: what was admitted stays counted, and the calls after are counted again", async () => {
    const policy: RateLimitPolicy = { name: "failing-test", limit: 200, window: "day" };
    const subject = "ip:198.51.100.6";
    const now = at("2026-11-22T10:00:00.000Z");
    let admitted = 0;
    for (let i = 0; i < 15; i++) if ((await consumeBufferedRateLimit(database.db, { subject, policy, now })).allowed) admitted++;
    await database.db.execute(sql`alter table rate_limit_counters rename to rate_limit_counters_offline`);
    let failed = 0;
    try {
      for (let i = 0; i < 10; i++) {
        try {
          if ((await consumeBufferedRateLimit(database.db, { subject, policy, now })).allowed) admitted++;
        } catch {
          failed++;
        }
      }
    } finally {
      await database.db.execute(sql`alter table rate_limit_counters_offline rename to rate_limit_counters`);
    }
    // The second block's five remaining calls were admitted from memory; the rest found no table.
    expect(admitted).toBe(20);
    expect(failed).toBe(5);
    expect(await storedHits("failing-test|ip:198.51.100.6")).toBe(20);
    const next = await consumeBufferedRateLimit(database.db, { subject, policy, now });
    expect(next.remaining).toBe(200 - 21);
    expect(await storedHits("failing-test|ip:198.51.100.6")).toBe(30);
  });

  it("starts a new window with a write of its own", async () => {
    const policy = { name: "window-test", limit: 200, window: "minute" as const };
    const first = at("2026-11-22T10:00:59.900Z");
    for (let i = 0; i < 5; i++) await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.3", policy, now: first });
    const next = await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.3", policy, now: at("2026-11-22T10:01:00.000Z") });
    expect(next.remaining).toBe(199);
    const [row] = await database.db
      .select({ hits: rateLimitCounters.hits })
      .from(rateLimitCounters)
      .where(and(eq(rateLimitCounters.bucket, "window-test|ip:198.51.100.3"), eq(rateLimitCounters.windowStart, at("2026-11-22T10:01:00.000Z"))));
    expect(row?.hits).toBe(10);
  });
});
