import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, documentMentions, documents } from "@directory/db";
import { createContext } from "../../context";
import { createCaller } from "../../root";
import { createApiKey } from "../../services/access/api-keys";
import { ingestDocuments, type IncomingDocument } from "../../services/graph/ingest";
import { createTestDatabase, SMALL_TEST_WORLD, type TestDatabase } from "../../testing";

let database: TestDatabase;
const callerWith = (key?: string) =>
  createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test", authorizationHeader: key ? `Bearer ${key}` : undefined }));

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
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
    .select({ id: documents.id, cityId: documents.cityId, categorySlug: documents.categorySlug, fetchedAt: documents.fetchedAt, query: documents.query })
    .from(documents)
    .where(eq(documents.kind, "ai_answer"));
  const mentions = await database.db
    .select({ documentId: documentMentions.documentId, position: documentMentions.position })
    .from(documentMentions)
    .where(eq(documentMentions.businessId, business.id));
  const positions = new Map(mentions.map((mention) => [mention.documentId, mention.position]));
  return answers
    .filter((answer) => (answer.cityId === business.cityId && answer.categorySlug === business.categorySlug) || positions.has(answer.id))
    .map((answer) => ({
      at: answer.fetchedAt.getTime(),
      query: answer.query ?? "",
      mentioned: positions.has(answer.id),
      position: positions.get(answer.id) ?? null,
    }));
}

describe("owner insights (get_my_visibility_score, get_my_citations)", () => {
  it("shows a business its own internal scores, their scale, and the citation rate of the checks dated in the window that ends now", async () => {
    const [own] = await ownerVerifiedBusinesses();
    const [named] = await database.db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, own!.id));
    // Answers of its city and category around the window's edges: one naming it 75 days ago, one not naming it
    // 10 days ago, one naming it 100 days ago (outside), and one dated 30 days ahead (outside: the window ends now).
    // Counted back from the latest check, as before, the window held the future answer and not the one 75 days old.
    const at = (days: number) => new Date(Date.now() + days * 86_400_000);
    const answer = (days: number, body: string): IncomingDocument => ({
      kind: "ai_answer",
      source: "test:owner-window",
      engine: "test-engine",
      query: `window check ${days}`,
      fetchedAt: at(days),
      language: "en",
      cityId: own!.cityId,
      categorySlug: own!.categorySlug,
      body,
    });
    await ingestDocuments(database.db, {
      batch: [
        answer(-75, `The one people name is ${named!.name}.`),
        answer(-10, "Nobody in particular comes to mind."),
        answer(-100, `Ask ${named!.name}.`),
        answer(30, "Nobody in particular comes to mind."),
      ],
    });
    const [stored] = await database.db.select({ visibilityScore: businesses.visibilityScore }).from(businesses).where(eq(businesses.id, own!.id));

    const { key } = await createApiKey(database.db, { kind: "business", businessSlug: own!.slug });
    const before = Date.now();
    const result = await callerWith(key).owner.visibility();
    const after = Date.now();
    expect(result).toMatchObject({ business: { slug: own!.slug }, visibilityScore: stored!.visibilityScore, geoScore: own!.geoScore });
    expect(result.periodDays).toBe(90);
    const since = Date.parse(result.since);
    const until = Date.parse(result.until);
    expect(until).toBeGreaterThanOrEqual(before);
    expect(until).toBeLessThanOrEqual(after);
    expect(until - since).toBe(90 * 86_400_000);

    const inWindow = (await checksFromDocuments(own!)).filter((check) => check.at >= since && check.at <= until);
    expect(result.citationRate.checks).toBe(inWindow.length);
    expect(result.citationRate.mentioned).toBe(inWindow.filter((check) => check.mentioned).length);
    const windowChecks = inWindow.filter((check) => check.query.startsWith("window check"));
    expect(windowChecks.map((check) => [check.query, check.mentioned])).toEqual(
      expect.arrayContaining([
        ["window check -75", true],
        ["window check -10", false],
      ]),
    );
    expect(windowChecks).toHaveLength(2);

    expect(result.scale.visibilityScore).toMatch(/^0 to 100/);
    expect(result.scale.geoScore).toMatch(/^0 to 100/);
    expect(result.scale.citationRate).toMatch(/since to until/);
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
