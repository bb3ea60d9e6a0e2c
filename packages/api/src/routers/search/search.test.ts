import { and, count, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, buyerQuestions, cities } from "@directory/db";
import { anonymousCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";

let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;
const TIERS = ["premium", "pro", "basic", "free"];

beforeAll(async () => {
  database = await createTestDatabase();
  caller = anonymousCaller(database.db);
});
afterAll(async () => {
  await database?.destroy();
});

describe("discovery procedures (what the MCP tools call)", () => {
  it("searches a category nationally or in one city, in tier order, and says how it ranks", async () => {
    const national = await caller.search.searchCategory({ category: "dentists", limit: 10 });
    expect(national.city).toBeNull();
    expect(national.total).toBe(10);
    const tiers = national.businesses.map((b) => TIERS.indexOf(b.planTier));
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    expect(national.rankingModel).toMatch(/plan tier/);
    expect(new Set(national.businesses.map((b) => b.city)).size).toBeGreaterThan(1);

    const local = await caller.search.searchCategory({ category: "dentist", city: "Mumbai", limit: 5 });
    expect(local.city?.name).toBe("Mumbai");
    expect(local.businesses.every((b) => b.city === "Mumbai")).toBe(true);
    await expect(caller.search.searchCategory({ category: "dentist", city: "Atlantis" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringMatching(/^Unknown city "Atlantis"\. .*get_available_cities/),
    });
    await expect(caller.search.searchCategory({ category: "unicorns" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("lists category leaders across all cities, matching the database's top ranks", async () => {
    const leaders = await caller.search.categoryLeaders({ category: "dentist", limit: 3 });
    const expected = await database.db
      .select({ id: businesses.id })
      .from(businesses)
      .where(and(eq(businesses.categorySlug, "dentist"), SERVABLE))
      .orderBy(businesses.planTier, desc(businesses.visibilityScore), businesses.name, businesses.id)
      .limit(3);
    expect(leaders.businesses.map((b) => b.id)).toEqual(expected.map((e) => e.id));
  });

  it("finds businesses by free text, by owner buyer-question text, and by a misspelt name", async () => {
    const [sample] = await database.db.select({ name: businesses.name, id: businesses.id }).from(businesses).where(SERVABLE).limit(1);
    const byName = await caller.search.searchKeyword({ query: sample!.name, limit: 10 });
    expect(byName.businesses.map((b) => b.id)).toContain(sample!.id);
    expect(byName.businesses[0]?.matchedBy).toBe("full_text");

    const [question] = await database.db
      .select({ businessId: buyerQuestions.businessId, question: buyerQuestions.question })
      .from(buyerQuestions)
      .innerJoin(businesses, eq(businesses.id, buyerQuestions.businessId))
      .where(SERVABLE)
      .limit(1);
    const words = question!.question
      .replace(/[^\p{L}\s]/gu, " ")
      .split(/\s+/)
      .filter((w) => w.length > 5)
      .slice(0, 2)
      .join(" ");
    const byQuestion = await caller.search.searchKeyword({ query: words, limit: 10 });
    expect(byQuestion.total).toBeGreaterThan(0);

    // Every word cut short: no exact token matches, so only the trigram fallback can find it.
    const misspelt = sample!.name
      .split(" ")
      .map((word) => (word.length > 3 ? word.slice(0, -1) : word))
      .join(" ");
    const fuzzy = await caller.search.searchKeyword({ query: misspelt, limit: 10 });
    expect(fuzzy.businesses.map((b) => b.id)).toContain(sample!.id);
    expect(fuzzy.businesses.every((b) => b.matchedBy === "fuzzy_name")).toBe(true);
  });

  it("orders a listicle by completeness score then name and says it is not paid", async () => {
    const listicle = await caller.search.getListicle({ category: "dentist", city: "Mumbai", limit: 10 });
    expect(listicle.paidPlacement).toBe(false);
    expect(listicle.disclosure).toMatch(/Not a paid placement/);
    const keys = listicle.businesses.map((b) => [-b.directoryCompletenessScore, b.name] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
    expect(keys).toEqual(sorted);
  });

  it("lists the cities that have listings in a category, with true counts", async () => {
    const result = await caller.search.availableCities({ category: "dentist", limit: 50 });
    const expected = await database.db
      .select({ name: cities.name, n: count() })
      .from(businesses)
      .innerJoin(cities, eq(cities.id, businesses.cityId))
      .where(and(eq(businesses.categorySlug, "dentist"), SERVABLE))
      .groupBy(cities.name);
    expect(result.totalMatches).toBe(expected.length);
    expect(result.total).toBe(Math.min(50, expected.length));
    for (const city of result.cities) expect(city.listings).toBe(expected.find((row) => row.name === city.name)?.n);
  });
});

describe("entity extras (what the MCP tools call)", () => {
  async function ownerQuestionBusiness() {
    const [row] = await database.db
      .select({ slug: businesses.slug, id: businesses.id, category: businesses.categorySlug })
      .from(buyerQuestions)
      .innerJoin(businesses, eq(businesses.id, buyerQuestions.businessId))
      .where(SERVABLE)
      .limit(1);
    return row!;
  }

  it("returns owner questions first, then the category's templates", async () => {
    const target = await ownerQuestionBusiness();
    const result = await caller.entities.getBuyerQuestions({ slug: target.slug });
    const sources = result.questions.map((q) => q.source);
    expect(sources[0]).toBe("owner");
    expect(sources).toContain("category_template");
    expect(sources.lastIndexOf("owner")).toBeLessThan(sources.indexOf("category_template"));
    const owned = await database.db.select({ n: count() }).from(buyerQuestions).where(eq(buyerQuestions.businessId, target.id));
    expect(sources.filter((s) => s === "owner")).toHaveLength(owned[0]!.n);
  });

  it("returns a business's offers with exact decimal prices, cheapest first", async () => {
    const [paid] = await database.db
      .select({ slug: businesses.slug })
      .from(businesses)
      .where(and(SERVABLE, sql`${businesses.planTier} in ('pro', 'premium')`))
      .limit(1);
    const result = await caller.entities.getOffers({ slug: paid!.slug });
    expect(result.total).toBeGreaterThan(0);
    for (const offer of result.offers) expect(offer.price).toMatch(/^\d+\.\d{2}$/);
    const prices = result.offers.map((o) => Number(o.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it("compares two businesses with their differences and no internal score", async () => {
    const pair = await caller.search.searchCategory({ category: "dentist", city: "Mumbai", limit: 2 });
    const [a, b] = pair.businesses;
    const result = await caller.entities.compare({ slugA: a!.slug, slugB: b!.slug });
    expect(result.businesses.map((x) => x.slug)).toEqual([a!.slug, b!.slug]);
    expect(result.differences.length).toBeGreaterThan(0);
    expect(JSON.stringify(result)).not.toMatch(/geoScore|visibilityScore/);
    await expect(caller.entities.compare({ slugA: a!.slug, slugB: a!.slug })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.entities.compare({ slugA: a!.slug, slugB: "no-such-business" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
