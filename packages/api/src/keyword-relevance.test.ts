import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses } from "@directory/db";
import { createTestDatabase, type TestDatabase } from "@directory/db/testing";
import { createContext } from "./context";
import { createCaller } from "./root";

/*
 * Relevance cases for keyword search (issue 11): whatever the search reads and however it bounds
 * its candidates, these known queries must keep their best answers first.
 */
let database: TestDatabase;
let caller: ReturnType<typeof createCaller>;
const servable = sql`${businesses.status} = 'active' and (${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now())`;

beforeAll(async () => {
  database = await createTestDatabase();
  caller = createCaller(createContext({ db: database.db, publicBaseUrl: "http://directory.test" }));
});
afterAll(async () => {
  await database?.destroy();
});

describe("keyword search relevance (known queries)", () => {
  it("puts a business first when its full name is the query", async () => {
    const samples = await database.db.select({ id: businesses.id, name: businesses.name }).from(businesses).where(servable).orderBy(businesses.id).limit(5);
    for (const sample of samples) {
      const result = await caller.discovery.searchKeyword({ query: sample.name, limit: 5 });
      expect(result.businesses[0]?.name, sample.name).toBe(sample.name);
    }
  });

  it.each([
    { query: "root canal", city: "Mumbai", category: "Dentist" },
    { query: "teeth whitening", category: "Dentist" },
    { query: "emergency plumber", category: "Plumber" },
    { query: "wedding photography", category: "Photographer" },
  ])("answers $query with a $category first", async ({ query, city, category }) => {
    const result = await caller.discovery.searchKeyword({ query, city, limit: 10 });
    expect(result.businesses.length).toBeGreaterThan(0);
    expect(result.businesses[0]?.category).toMatch(new RegExp(category, "i"));
    expect(result.businesses[0]?.matchedBy).toBe("full_text");
    if (city) expect(result.businesses.every((b) => b.city === city)).toBe(true);
  });

  it("tolerates a misspelt name and says the match was fuzzy", async () => {
    const [sample] = await database.db
      .select({ name: businesses.name })
      .from(businesses)
      .where(and(servable, eq(businesses.categorySlug, "dentist")))
      .orderBy(businesses.id)
      .limit(1);
    const misspelt = sample!.name.replace(/([a-z])([a-z])/, "$2$1");
    const result = await caller.discovery.searchKeyword({ query: misspelt, limit: 10 });
    expect(result.businesses[0]?.matchedBy).toBe("fuzzy_name");
    expect(result.businesses.map((b) => b.name)).toContain(sample!.name);
  });
});
