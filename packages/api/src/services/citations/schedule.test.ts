import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, businessOwners, rowsOf } from "@directory/db";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";
import { parseCitationEngines } from "./engines";
import { scheduleChecks } from "./schedule";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await database?.destroy();
});

const engines = parseCitationEngines("compatible:a@http://127.0.0.1:9/v1,compatible:b@http://127.0.0.1:9/v1");
const pairKey = (pair: { cityId: number; categorySlug: string }) => `${pair.cityId}/${pair.categorySlug}`;

describe("the schedule of citation checks", () => {
  it("queues owner-verified pairs first, then the largest, within the budget; once a period; the unchecked first the next day", async () => {
    const pairs = rowsOf<{ city_id: number; category_slug: string; business_id: string }>(
      await database.db.execute(sql`
        select city_id, category_slug, min(id::text) as business_id from businesses
        group by city_id, category_slug order by count(*) desc, city_id, category_slug`),
    );
    const smallest = pairs.at(-1)!;
    const [account] = await database.db.insert(accounts).values({ email: "owner@schedule.example" }).returning({ id: accounts.id });
    await database.db.insert(businessOwners).values({ businessId: smallest.business_id, accountId: account!.id, method: "operator", decidedBy: "operator" });
    const day = new Date("2026-11-01T06:00:00Z");

    // Budget 5 for two engines: two pairs.
    const first = await scheduleChecks(database.db, { engines, checksPerDay: 5, now: day });
    expect(first.map(pairKey)).toEqual([`${smallest.city_id}/${smallest.category_slug}`, `${pairs[0]!.city_id}/${pairs[0]!.category_slug}`]);
    const [queued] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from citation_checks where status = 'queued'`));
    expect(Number(queued!.n)).toBe(4);

    // The queued checks count against the budget, and a pair is queued once a period.
    expect(await scheduleChecks(database.db, { engines, checksPerDay: 5, now: day })).toEqual([]);
    const more = await scheduleChecks(database.db, { engines, checksPerDay: 8, now: day });
    expect(more.map(pairKey)).toEqual([`${pairs[1]!.city_id}/${pairs[1]!.category_slug}`, `${pairs[2]!.city_id}/${pairs[2]!.category_slug}`]);

    // The next day (the queue cleared): the owned pair first again, then a pair never checked before those checked yesterday.
    await database.db.execute(sql`update citation_checks set status = 'done'`);
    const nextDay = await scheduleChecks(database.db, { engines, checksPerDay: 4, now: new Date(day.getTime() + 86_400_000) });
    expect(nextDay.map(pairKey)).toEqual([`${smallest.city_id}/${smallest.category_slug}`, `${pairs[3]!.city_id}/${pairs[3]!.category_slug}`]);
  });

  it("queues nothing with no engine configured", async () => {
    expect(await scheduleChecks(database.db, { engines: [], checksPerDay: 200, now: new Date() })).toEqual([]);
  });
});
