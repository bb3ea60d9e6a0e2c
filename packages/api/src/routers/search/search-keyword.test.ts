import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { anonymousCaller, SERVABLE } from "../../test-callers";
import { createTestDatabase, type TestDatabase } from "../../testing";

/*
 * Relevance cases for keyword search (issue 11): whatever the search reads and however it bounds
 * its candidates, these known queries must keep their best answers first.
 */
let database: TestDatabase;
let caller: ReturnType<typeof anonymousCaller>;

beforeAll(async () => {
  database = await createTestDatabase();
  caller = anonymousCaller(database.db);
});
afterAll(async () => {
  await database?.destroy();
});

describe("keyword search relevance (known queries)", () => {
  it("puts a business first when its full name is the query", async () => {
    const samples = await database.db.select({ id: businesses.id, name: businesses.name }).from(businesses).where(SERVABLE).orderBy(businesses.id).limit(5);
    for (const sample of samples) {
      const result = await caller.search.searchKeyword({ query: sample.name, limit: 5 });
      expect(result.businesses[0]?.name, sample.name).toBe(sample.name);
    }
  });

  it.each([
    { query: "root canal", city: "Mumbai", category: "Dentist" },
    { query: "teeth whitening", category: "Dentist" },
    { query: "emergency plumber", category: "Plumber" },
    { query: "wedding photography", category: "Photographer" },
  ])("answers $query with a $category first", async ({ query, city, category }) => {
    const result = await caller.search.searchKeyword({ query, city, limit: 10 });
    expect(result.businesses.length).toBeGreaterThan(0);
    expect(result.businesses[0]?.category).toMatch(new RegExp(category, "i"));
    expect(result.businesses[0]?.matchedBy).toBe("full_text");
    if (city) expect(result.businesses.every((b) => b.city === city)).toBe(true);
  });

  it("tolerates a misspelt name and says the match was fuzzy", async () => {
    const [sample] = await database.db
      .select({ name: businesses.name })
      .from(businesses)
      .where(and(SERVABLE, eq(businesses.categorySlug, "dentist")))
      .orderBy(businesses.id)
      .limit(1);
    const misspelt = sample!.name.replace(/([a-z])([a-z])/, "$2$1");
    const result = await caller.search.searchKeyword({ query: misspelt, limit: 10 });
    expect(result.businesses[0]?.matchedBy).toBe("fuzzy_name");
    expect(result.businesses.map((b) => b.name)).toContain(sample!.name);
  });

  it("corrects a misspelt kind of business to the category word and searches again", async () => {
    for (const [query, category] of [
      ["dentst", "Dentist"],
      ["plumbr", "Plumber"],
    ] as const) {
      const result = await caller.search.searchKeyword({ query, limit: 10 });
      expect(result.businesses.length, query).toBeGreaterThan(0);
      expect(
        result.businesses.every((b) => b.matchedBy === "full_text"),
        query,
      ).toBe(true);
      expect(result.businesses[0]?.category, query).toBe(category);
    }
    const unknown = await caller.search.searchKeyword({ query: "qzxvbn", limit: 10 });
    expect(unknown.businesses).toEqual([]);
  });

  it("weighs a word in the name above the same word in a description", async () => {
    const [named, described] = await database.db
      .select({ id: businesses.id, cityId: businesses.cityId })
      .from(businesses)
      .where(and(SERVABLE, eq(businesses.categorySlug, "dentist")))
      .orderBy(businesses.id)
      .limit(2);
    await database.db.update(businesses).set({ name: "Zyxwvut Dental" }).where(eq(businesses.id, named!.id));
    await database.db.update(businesses).set({ description: "Not Zyxwvut, but close." }).where(eq(businesses.id, described!.id));
    const result = await caller.search.searchKeyword({ query: "zyxwvut", limit: 5 });
    expect(result.businesses.map((b) => b.id)).toEqual([named!.id, described!.id]);
  });
});

describe("the narrow search table follows every write to businesses", () => {
  it("finds a renamed business by its new name at once, in its city only, and drops it when decommissioned", async () => {
    const [sample] = await database.db
      .select({ id: businesses.id, city: businesses.cityId })
      .from(businesses)
      .where(SERVABLE)
      .orderBy(businesses.slug)
      .limit(1);
    const [elsewhere] = await database.db
      .select({ name: sql<string>`c.name` })
      .from(sql`cities c`)
      .where(sql`c.id <> ${sample!.city} and exists (select 1 from businesses b where b.city_id = c.id)`)
      .limit(1);
    await database.db.update(businesses).set({ name: "Quokkaberry Works" }).where(eq(businesses.id, sample!.id));
    const found = await caller.search.searchKeyword({ query: "quokkaberry", limit: 5 });
    expect(found.businesses.map((b) => b.id)).toEqual([sample!.id]);
    const inCity = await caller.search.searchKeyword({ query: "quokkaberry", city: found.businesses[0]!.city, limit: 5 });
    expect(inCity.businesses.map((b) => b.id)).toEqual([sample!.id]);
    const otherCity = await caller.search.searchKeyword({ query: "quokkaberry", city: elsewhere!.name, limit: 5 });
    expect(otherCity.businesses.filter((b) => b.matchedBy === "full_text")).toEqual([]);

    await database.db.update(businesses).set({ status: "inactive" }).where(eq(businesses.id, sample!.id));
    const gone = await caller.search.searchKeyword({ query: "quokkaberry", limit: 5 });
    expect(gone.businesses.map((b) => b.id)).not.toContain(sample!.id);
  });
});
