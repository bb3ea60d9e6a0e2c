import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, cities, documents, rowsOf, type Db } from "@directory/db";
import { decommissionBusiness } from "../../services/claims/lifecycle";
import { loadDictionary } from "../../services/graph/dictionary";
import { MentionMatcher, type DocumentContext } from "../../services/graph/extract";
import { invalidateGraphStatistics } from "../../services/graph/graph-statistics";
import { ingestDocuments } from "../../services/graph/ingest";
import { ownCitations } from "../../services/owner/owner-insights";
import { anonymousCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;

beforeAll(async () => {
  database = await createTestDatabase();
  caller = anonymousCaller(database.db);
});
afterAll(async () => {
  await database?.destroy();
});

/** The graph as the test derives it itself: the extractor run over every stored document's text. */
async function graphFromText(db: Db) {
  const docs = await db.select({ id: documents.id, body: documents.body, cityId: documents.cityId, categorySlug: documents.categorySlug }).from(documents);
  const matchers = new Map<string, MentionMatcher>();
  const named = new Map<string, string[]>();
  for (const doc of docs) {
    const context: DocumentContext = { cityId: doc.cityId, categorySlug: doc.categorySlug };
    const key = `${doc.cityId}|${doc.cityId === null ? doc.categorySlug : ""}`;
    if (!matchers.has(key)) matchers.set(key, new MentionMatcher(await loadDictionary(db, context)));
    named.set(
      doc.id,
      matchers
        .get(key)!
        .extract(doc.body, context)
        .map((mention) => mention.businessId),
    );
  }
  const live = new Set((await db.select({ id: businesses.id }).from(businesses).where(SERVABLE)).map((row) => row.id));
  const weights = new Map<string, number>();
  for (const ids of named.values()) {
    const listed = ids.filter((id) => live.has(id)).sort();
    for (let i = 0; i < listed.length; i++)
      for (let j = i + 1; j < listed.length; j++) {
        const key = `${listed[i]} ${listed[j]}`;
        weights.set(key, (weights.get(key) ?? 0) + 1);
      }
  }
  const neighboursOf = (id: string) =>
    new Map(
      [...weights].flatMap(([key, weight]) => {
        const [a, b] = key.split(" ") as [string, string];
        return a === id ? [[b, weight] as const] : b === id ? [[a, weight] as const] : [];
      }),
    );
  return { named, weights, neighboursOf, live };
}

function strongest(weights: Map<string, number>) {
  return [...weights].sort((x, y) => y[1] - x[1])[0]!;
}

describe("knowledge graph (GET /api/v2/knowledge-graph)", () => {
  it("answers network, top_pairs and statistics with edges recomputed from the documents' text", async () => {
    const text = await graphFromText(database.db);
    expect(text.weights.size).toBeGreaterThan(0);

    const top = await caller.graph.getKnowledgeGraph({ type: "top_pairs" });
    if (top.type !== "top_pairs") throw new Error("wrong shape");
    expect(top.pairs.length).toBeGreaterThan(0);
    expect(top.pairs[0]!.weight).toBe(strongest(text.weights)[1]);
    for (const pair of top.pairs) {
      const key = pair.businesses
        .map((b) => b.id)
        .sort()
        .join(" ");
      expect(pair.weight, key).toBe(text.weights.get(key));
    }

    const [a] = top.pairs[0]!.businesses;
    const network = await caller.graph.getKnowledgeGraph({ type: "network", businessId: a!.id });
    if (network.type !== "network") throw new Error("wrong shape");
    const expected = text.neighboursOf(a!.id);
    expect(network.neighbours.length).toBe(Math.min(20, expected.size));
    const weights = network.neighbours.map((n) => n.weight);
    expect(weights).toEqual([...weights].sort((x, y) => y - x));
    for (const neighbour of network.neighbours) {
      expect(neighbour.weight).toBe(expected.get(neighbour.business.id));
      expect(neighbour.documents.length).toBe(Math.min(3, neighbour.weight));
      for (const doc of neighbour.documents) {
        expect(text.named.get(doc.id)).toEqual(expect.arrayContaining([a!.id, neighbour.business.id]));
        expect(doc.excerpt.length).toBeGreaterThan(0);
      }
    }
    // The slug works as well as the immutable id.
    const bySlug = await caller.graph.getKnowledgeGraph({ type: "network", businessId: a!.slug });
    expect(bySlug).toEqual(network);

    const stats = await caller.graph.getKnowledgeGraph({});
    if (stats.type !== "stats") throw new Error("wrong shape");
    const [counts] = await database.db.select({ documents: sql<number>`count(*)::int` }).from(documents);
    expect(stats.documents).toBe(counts!.documents);
    expect(stats.edges).toBe(text.weights.size);
    expect(stats.lastIngestAt).toMatch(/^\d{4}-/);
    for (const answer of [top, network, stats]) expect(JSON.stringify(answer)).not.toMatch(/visibilityScore|geoScore/);
  });

  it("lists complementary categories of a city, with counts recomputed from the text", async () => {
    const [guide] = await database.db
      .select({ cityId: documents.cityId, cityName: cities.name })
      .from(documents)
      .innerJoin(cities, eq(cities.id, documents.cityId))
      .where(eq(documents.kind, "article"))
      .orderBy(documents.id)
      .limit(1);
    const text = await graphFromText(database.db);
    const categoryOf = new Map(
      (await database.db.select({ id: businesses.id, category: businesses.categorySlug }).from(businesses).where(eq(businesses.cityId, guide!.cityId!))).map(
        (row) => [row.id, row.category],
      ),
    );
    const categoriesByDoc = [...text.named.values()].map(
      (ids) => new Set(ids.filter((id) => text.live.has(id) && categoryOf.has(id)).map((id) => categoryOf.get(id)!)),
    );
    const anchor = [...categoriesByDoc.find((set) => set.size > 1)!][0]!;
    const withAnchor = categoriesByDoc.filter((set) => set.has(anchor));

    const result = await caller.graph.getKnowledgeGraph({ type: "complementary", category: anchor, city: guide!.cityName });
    if (result.type !== "complementary") throw new Error("wrong shape");
    expect(result.documents).toBe(withAnchor.length);
    expect(result.categories.length).toBeGreaterThan(0);
    for (const entry of result.categories) {
      const co = withAnchor.filter((set) => set.has(entry.category.slug)).length;
      const all = categoriesByDoc.filter((set) => set.size > 0);
      expect(entry.coMentions).toBe(co);
      expect(entry.share).toBeCloseTo(co / withAnchor.length, 3);
      const baseline = all.filter((set) => set.has(entry.category.slug)).length / all.length;
      expect(entry.lift).toBeCloseTo(co / withAnchor.length / baseline, 2);
    }
  });

  it("adds an ingested document's edges at once; ingesting it again changes nothing", async () => {
    const pair = await database.db
      .select({ id: businesses.id, name: businesses.name, cityId: businesses.cityId, category: businesses.categorySlug })
      .from(businesses)
      .where(sql`${SERVABLE} and ${businesses.cityId} = (select city_id from businesses group by city_id order by count(*) desc limit 1)`)
      .orderBy(businesses.id);
    const names = new Map<string, number>();
    for (const row of pair) names.set(row.name, (names.get(row.name) ?? 0) + 1);
    const [first, second] = pair.filter(
      (row) => names.get(row.name) === 1 && !pair.some((other) => other !== row && (other.name.includes(row.name) || row.name.includes(other.name))),
    );
    const before = await caller.graph.getKnowledgeGraph({ type: "network", businessId: first!.id });
    if (before.type !== "network") throw new Error("wrong shape");
    const weightBefore = before.neighbours.find((n) => n.business.id === second!.id)?.weight ?? 0;

    const doc = {
      kind: "ai_answer" as const,
      source: "test:ingest",
      engine: "perplexity",
      query: "who to call this week",
      fetchedAt: new Date("2026-11-01T10:00:00Z"),
      language: "en",
      cityId: first!.cityId,
      categorySlug: null,
      body: `Two names keep coming up: ${first!.name}, and right after it ${second!.name}.`,
    };
    const once = await ingestDocuments(database.db, { batch: [doc] });
    expect(once).toMatchObject({ stored: 1, duplicates: 0 });
    const after = await caller.graph.getKnowledgeGraph({ type: "network", businessId: first!.id });
    if (after.type !== "network") throw new Error("wrong shape");
    const edge = after.neighbours.find((n) => n.business.id === second!.id);
    expect(edge?.weight).toBe(weightBefore + 1);

    const twice = await ingestDocuments(database.db, { batch: [doc, doc] });
    expect(twice).toMatchObject({ stored: 0, duplicates: 2 });
    expect(await caller.graph.getKnowledgeGraph({ type: "network", businessId: first!.id })).toEqual(after);
  });

  it("derives citation checks from the AI answers, with the position in the answer", async () => {
    const text = await graphFromText(database.db);
    const answers = await database.db.select({ id: documents.id }).from(documents).where(eq(documents.kind, "ai_answer"));
    const verified = new Set(
      (await database.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.ownership, "owner_verified"))).map((row) => row.id),
    );
    const named = answers.flatMap((answer) => text.named.get(answer.id)!.map((id, index) => ({ id, position: index + 1 })));
    const owner = named.find((mention) => verified.has(mention.id))!.id;
    const positionsFromText = named
      .filter((mention) => mention.id === owner)
      .map((mention) => mention.position)
      .sort();
    const { checks } = await ownCitations(database.db, { businessId: owner, limit: 100 });
    expect(checks.length).toBeGreaterThan(0);
    expect(
      checks
        .filter((check) => check.mentioned)
        .map((check) => check.position)
        .sort(),
    ).toEqual(positionsFromText);
    for (const check of checks.filter((c) => !c.mentioned)) expect(check.position).toBeNull();
  });

  it("derives each named business's visibility score from the answers of its city and category and those naming it", async () => {
    const text = await graphFromText(database.db);
    const answers = await database.db
      .select({ id: documents.id, cityId: documents.cityId, categorySlug: documents.categorySlug })
      .from(documents)
      .where(eq(documents.kind, "ai_answer"));
    const namedIds = [...new Set([...text.named.values()].flat())].slice(0, 60);
    const rows = await database.db
      .select({ id: businesses.id, cityId: businesses.cityId, categorySlug: businesses.categorySlug, score: businesses.visibilityScore })
      .from(businesses)
      .where(sql`${businesses.id} = any(${`{${namedIds.join(",")}}`}::uuid[])`);
    expect(rows.length).toBeGreaterThan(0);
    for (const business of rows) {
      const concerning = answers.filter(
        (answer) => (answer.cityId === business.cityId && answer.categorySlug === business.categorySlug) || text.named.get(answer.id)!.includes(business.id),
      );
      const credit = concerning.map((answer) => {
        const position = text.named.get(answer.id)!.indexOf(business.id) + 1;
        return position === 0 ? 0 : 1 / Math.sqrt(position);
      });
      const expected = concerning.length === 0 ? 0 : Math.round((100 * credit.reduce((sum, x) => sum + x, 0)) / concerning.length);
      expect(business.score, business.id).toBe(expected);
    }
  });

  it("keeps each mention's city and category those of its business, also after a move", async () => {
    const drifted = async () => {
      const result = await database.db.execute(sql`select count(*)::int as drifted from document_mentions m join businesses b on b.id = m.business_id
        where m.city_id is distinct from b.city_id or m.category_slug is distinct from b.category_slug`);
      return Number(rowsOf<{ drifted: number }>(result)[0]!.drifted);
    };
    expect(await drifted()).toBe(0);
    const [mentioned] = rowsOf<{ business_id: string }>(await database.db.execute(sql`select business_id from document_mentions order by business_id limit 1`));
    const [elsewhere] = await database.db
      .select({ id: cities.id })
      .from(cities)
      .where(sql`${cities.id} <> (select city_id from businesses where id = ${mentioned!.business_id})`)
      .limit(1);
    await database.db.update(businesses).set({ cityId: elsewhere!.id, categorySlug: "plumber" }).where(eq(businesses.id, mentioned!.business_id));
    expect(await drifted()).toBe(0);
  });

  it("leaves a decommissioned business out of every answer", async () => {
    const top = await caller.graph.getKnowledgeGraph({ type: "top_pairs" });
    if (top.type !== "top_pairs") throw new Error("wrong shape");
    const [gone, partner] = top.pairs[0]!.businesses;
    await decommissionBusiness(database.db, { slug: gone!.slug });

    const afterTop = await caller.graph.getKnowledgeGraph({ type: "top_pairs" });
    if (afterTop.type !== "top_pairs") throw new Error("wrong shape");
    expect(afterTop.pairs.flatMap((p) => p.businesses.map((b) => b.id))).not.toContain(gone!.id);
    const network = await caller.graph.getKnowledgeGraph({ type: "network", businessId: partner!.id });
    if (network.type !== "network") throw new Error("wrong shape");
    expect(network.neighbours.map((n) => n.business.id)).not.toContain(gone!.id);
    await expect(caller.graph.getKnowledgeGraph({ type: "network", businessId: gone!.id })).rejects.toMatchObject({ cause: { code: "ENTITY_DECOMMISSIONED" } });
    // The statistics are held up to their bound (graph-statistics.test.ts); a recount leaves the business out.
    invalidateGraphStatistics(database.db);
    const stats = await caller.graph.getKnowledgeGraph({});
    if (stats.type !== "stats") throw new Error("wrong shape");
    expect(stats.edges).toBe((await graphFromText(database.db)).weights.size);
  });

  it("refuses missing and unused parameters with 400s naming them, and unknown things with 404s", async () => {
    await expect(caller.graph.getKnowledgeGraph({ type: "network" })).rejects.toMatchObject({
      cause: { code: "MISSING_PARAMETER", message: expect.stringMatching(/businessId/) },
    });
    await expect(caller.graph.getKnowledgeGraph({ type: "complementary", city: "Mumbai" })).rejects.toMatchObject({
      cause: { code: "MISSING_PARAMETER", message: expect.stringMatching(/category/) },
    });
    await expect(caller.graph.getKnowledgeGraph({ type: "top_pairs", businessId: "x" })).rejects.toMatchObject({
      cause: { code: "INVALID_INPUT", message: expect.stringMatching(/businessId/) },
    });
    await expect(caller.graph.getKnowledgeGraph({ category: "dentist" })).rejects.toMatchObject({
      cause: { code: "INVALID_INPUT", message: expect.stringMatching(/category/) },
    });
    await expect(caller.graph.getKnowledgeGraph({ type: "network", businessId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      cause: { code: "NOT_FOUND" },
    });
    await expect(caller.graph.getKnowledgeGraph({ type: "network", businessId: "no-such-business-anywhere" })).rejects.toMatchObject({
      cause: { code: "NOT_FOUND" },
    });
    await expect(caller.graph.getKnowledgeGraph({ type: "complementary", category: "no-such-trade-zz" })).rejects.toMatchObject({
      cause: { code: "NOT_FOUND" },
    });
  });
});
