import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, citationChecks } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "@directory/db/testing";
import { createContext } from "./context";
import { createCaller } from "./root";
import { createApiKey } from "./services/api-keys";

let database: TestDatabase;
const callerWith = (key?: string) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", authorizationHeader: key ? `Bearer ${key}` : undefined }));

beforeAll(async () => {
  database = await createTestDatabase({ seed: { businesses: 200 } });
});
afterAll(async () => {
  await database?.destroy();
});

async function ownerVerifiedBusinesses() {
  return database.db
    .select({ id: businesses.id, slug: businesses.slug, visibilityScore: businesses.visibilityScore, geoScore: businesses.geoScore })
    .from(businesses)
    .where(eq(businesses.ownership, "owner_verified"))
    .limit(2);
}

describe("owner insights (get_my_visibility_score, get_my_citations)", () => {
  it("shows a business its own internal scores and citation rate, computed from its checks", async () => {
    const [own] = await ownerVerifiedBusinesses();
    const { key } = await createApiKey(database.db, { kind: "business", businessSlug: own!.slug });
    const result = await callerWith(key).owner.visibility();
    expect(result).toMatchObject({ business: { slug: own!.slug }, visibilityScore: own!.visibilityScore, geoScore: own!.geoScore });
    const [expected] = await database.db
      .select({ checks: count(), mentioned: sql<number>`count(*) filter (where ${citationChecks.mentioned})::int` })
      .from(citationChecks)
      .where(
        and(
          eq(citationChecks.businessId, own!.id),
          sql`${citationChecks.checkedAt} >= (select max(checked_at) - interval '90 days' from citation_checks where business_id = ${own!.id})`,
        ),
      );
    expect(result.periodDays).toBe(90);
    expect(result.citationRate.checks).toBe(expected!.checks);
    expect(result.citationRate.mentioned).toBe(Number(expected!.mentioned));
    expect(result.citationRate.checks).toBeGreaterThan(0);
  });

  it("lists its own recent citation checks, newest first, bounded", async () => {
    const [own] = await ownerVerifiedBusinesses();
    const { key } = await createApiKey(database.db, { kind: "business", businessSlug: own!.slug });
    const result = await callerWith(key).owner.citations({ limit: 3 });
    expect(result.total).toBe(3);
    const times = result.checks.map((c) => c.checkedAt);
    expect(times).toEqual([...times].sort().reverse());
    for (const check of result.checks) expect(check).toMatchObject({ engine: expect.any(String), query: expect.any(String), mentioned: expect.any(Boolean) });
    // Read from stored AI answers: a mention has its place in the answer, a miss has none.
    for (const check of result.checks) expect(check.position === null).toBe(!check.mentioned);
    const [row] = await database.db.select({ n: count() }).from(citationChecks).where(and(eq(citationChecks.businessId, own!.id)));
    expect(row!.n).toBeGreaterThanOrEqual(3);
  });

  it("refuses anonymous callers and keys of other kinds; a business key only ever sees its own business", async () => {
    const [first, second] = await ownerVerifiedBusinesses();
    await expect(callerWith().owner.visibility()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const { key: developer } = await createApiKey(database.db, { kind: "developer" });
    await expect(callerWith(developer).owner.citations({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    const { key: secondKey } = await createApiKey(database.db, { kind: "business", businessSlug: second!.slug });
    const seen = await callerWith(secondKey).owner.visibility();
    expect(seen.business.slug).toBe(second!.slug);
    expect(seen.business.slug).not.toBe(first!.slug);
  });
});
