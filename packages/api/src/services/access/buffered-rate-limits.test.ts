import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitCounters } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "../../testing";
import { consumeBufferedRateLimit } from "./buffered-rate-limits";

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

describe("fail-open limits counted in memory between exact writes", () => {
  it("answers every call with the exact remaining count, writes a burst once, and loses none of it at the next exact call", async () => {
    const policy = { name: "burst-test", limit: 1_000, window: "day" as const };
    const now = new Date("2026-11-22T10:00:00.000Z");
    const remaining: number[] = [];
    for (let i = 0; i < 100; i++) remaining.push((await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.1", policy, now })).remaining);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => 1_000 - i - 1));
    expect(await storedHits("burst-test|ip:198.51.100.1")).toBe(1);

    const later = new Date(now.getTime() + 300);
    const next = await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.1", policy, now: later });
    expect(next.remaining).toBe(1_000 - 101);
    expect(await storedHits("burst-test|ip:198.51.100.1")).toBe(101);
  });

  it("syncs a busy bucket with one exact call: calls arriving meanwhile count in memory, then are written with the next", async () => {
    const policy = { name: "herd-test", limit: 1_000, window: "day" as const };
    const subject = "ip:198.51.100.4";
    const now = new Date("2026-11-22T10:00:00.000Z");
    await consumeBufferedRateLimit(database.db, { subject, policy, now });
    // Past the sync interval, 20 calls at once: one writes, the other 19 wait on nobody's row lock.
    const later = new Date(now.getTime() + 300);
    const burst = await Promise.all(Array.from({ length: 20 }, () => consumeBufferedRateLimit(database.db, { subject, policy, now: later })));
    expect(burst.every((decision) => decision.allowed)).toBe(true);
    expect(await storedHits("herd-test|ip:198.51.100.4")).toBe(2);
    const next = await consumeBufferedRateLimit(database.db, { subject, policy, now: new Date(later.getTime() + 300) });
    expect(next.remaining).toBe(1_000 - 22);
    expect(await storedHits("herd-test|ip:198.51.100.4")).toBe(22);
  });

  it("counts the last tenth of a limit exactly: N admitted, then refusals", async () => {
    const policy = { name: "edge-test", limit: 20, window: "day" as const };
    const now = new Date("2026-11-22T10:00:00.000Z");
    const decisions = [];
    for (let i = 0; i < 25; i++) decisions.push(await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.2", policy, now }));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    expect(decisions.slice(20).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
    expect(await storedHits("edge-test|ip:198.51.100.2")).toBe(20);
  });

  it("starts a new window with an exact write", async () => {
    const policy = { name: "window-test", limit: 1_000, window: "minute" as const };
    const first = new Date("2026-11-22T10:00:59.900Z");
    for (let i = 0; i < 5; i++) await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.3", policy, now: first });
    const next = await consumeBufferedRateLimit(database.db, { subject: "ip:198.51.100.3", policy, now: new Date("2026-11-22T10:01:00.000Z") });
    expect(next.remaining).toBe(999);
    const [row] = await database.db
      .select({ hits: rateLimitCounters.hits })
      .from(rateLimitCounters)
      .where(and(eq(rateLimitCounters.bucket, "window-test|ip:198.51.100.3"), eq(rateLimitCounters.windowStart, new Date("2026-11-22T10:01:00.000Z"))));
    expect(row?.hits).toBe(1);
  });
});
