import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, documentMentions, documents } from "@directory/db";
import { createContext } from "../../context";
import { createCaller } from "../../root";
import { createApiKey } from "../../services/access/api-keys";
import { createTestDatabase, type TestDatabase } from "../../testing";

let database: TestDatabase;
const callerWith = (key?: string) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", authorizationHeader: key ? `Bearer ${key}` : undefined }));

beforeAll(async () => {
  database = await createTestDatabase({ seed: { businesses: 200 } });
});
afterAll(async () => {
  await database?.destroy();
});

/** Owner-verified businesses whose city and category have at least three AI answers. */
async function ownerVerifiedBusinesses() {
  return database.db
    .select({
      id: businesses.id,
      slug: businesses.slug,
      cityId: businesses.cityId,
      categorySlug: businesses.categorySlug,
      visibilityScore: businesses.visibilityScore,
      geoScore: businesses.geoScore,
    })
    .from(businesses)
    .where(
      and(
        eq(businesses.ownership, "owner_verified"),
        sql`(select count(*) from documents d where d.kind = 'ai_answer' and d.city_id = ${businesses.cityId} and d.category_slug = ${businesses.categorySlug}) >= 3`,
      ),
    )
    .orderBy(businesses.id)
    .limit(2);
}

/** The checks as the test derives them: AI answers of the business's city and category, or naming it. */
async function checksFromDocuments(business: { id: string; cityId: number; categorySlug: string }) {
  const answers = await database.db
    .select({ id: documents.id, cityId: documents.cityId, categorySlug: documents.categorySlug, fetchedAt: documents.fetchedAt })
    .from(documents)
    .where(eq(documents.kind, "ai_answer"));
  const mentions = await database.db
    .select({ documentId: documentMentions.documentId, position: documentMentions.position })
    .from(documentMentions)
    .where(eq(documentMentions.businessId, business.id));
  const positions = new Map(mentions.map((mention) => [mention.documentId, mention.position]));
  return answers
    .filter((answer) => (answer.cityId === business.cityId && answer.categorySlug === business.categorySlug) || positions.has(answer.id))
    .map((answer) => ({ at: answer.fetchedAt.getTime(), mentioned: positions.has(answer.id), position: positions.get(answer.id) ?? null }));
}

describe("owner insights (get_my_visibility_score, get_my_citations)", () => {
  it("shows a business its own internal scores and citation rate, computed from the AI answers that concern it", async () => {
    const [own] = await ownerVerifiedBusinesses();
    const { key } = await createApiKey(database.db, { kind: "business", businessSlug: own!.slug });
    const result = await callerWith(key).owner.visibility();
    expect(result).toMatchObject({ business: { slug: own!.slug }, visibilityScore: own!.visibilityScore, geoScore: own!.geoScore });
    const checks = await checksFromDocuments(own!);
    const since = Math.max(...checks.map((check) => check.at)) - 90 * 86_400_000;
    const inPeriod = checks.filter((check) => check.at >= since);
    expect(result.periodDays).toBe(90);
    expect(result.citationRate.checks).toBe(inPeriod.length);
    expect(result.citationRate.mentioned).toBe(inPeriod.filter((check) => check.mentioned).length);
    expect(result.citationRate.checks).toBeGreaterThan(0);
  });

  it("lists its own recent citation checks, newest first, bounded, each as its AI answer says", async () => {
    const [own] = await ownerVerifiedBusinesses();
    const { key } = await createApiKey(database.db, { kind: "business", businessSlug: own!.slug });
    const result = await callerWith(key).owner.citations({ limit: 3 });
    expect(result.total).toBe(3);
    const times = result.checks.map((c) => c.checkedAt);
    expect(times).toEqual([...times].sort().reverse());
    for (const check of result.checks) expect(check).toMatchObject({ engine: expect.any(String), query: expect.any(String), mentioned: expect.any(Boolean) });
    // A mention has its place in the answer, a miss has none.
    for (const check of result.checks) expect(check.position === null).toBe(!check.mentioned);
    const newest = (await checksFromDocuments(own!)).sort((a, b) => b.at - a.at).slice(0, 3);
    expect(result.checks.map((check) => new Date(check.checkedAt).getTime())).toEqual(newest.map((check) => check.at));
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
