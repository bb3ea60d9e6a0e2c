import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, rowsOf } from "@directory/db";
import { SMALL_TEST_WORLD, createTestDatabase, type TestDatabase } from "../../testing";
import { loadDictionary } from "./dictionary";
import { foldForMatching } from "./extract";
import { MatcherCache, matchersForEachText } from "./ingest";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await database?.destroy();
});

describe("a document's dictionary narrowed to its text (citation checks' answers)", () => {
  it("finds exactly the mentions the city's whole dictionary finds, reading only the names the text can hold", async () => {
    const { db } = database;
    const [busiest] = rowsOf<{ city_id: number }>(await db.execute(sql`select city_id from businesses group by city_id order by count(*) desc limit 1`));
    const cityId = busiest!.city_id;
    const inCity = await db.select({ id: businesses.id, name: businesses.name }).from(businesses).where(eq(businesses.cityId, cityId)).orderBy(businesses.id);
    // Names whose folding is not plain ASCII lower case: accents, a typographic apostrophe in the text, upper case.
    const renamed = ["Café Größe Zürich", "Joe's Garage", "ÅNGSTRÖM DENTAL"];
    for (const [index, name] of renamed.entries()) await db.update(businesses).set({ name }).where(eq(businesses.id, inCity[index]!.id));
    const plain = inCity[3]!.name;
    const text = `Top picks: 1. ${plain.toUpperCase()} 2. café größe zürich, 3. JOE’S GARAGE and 4. Ångström Dental. Not a name: Joe's Garages.`;
    const context = { cityId, categorySlug: null };

    const whole = (await new MatcherCache().get(db, context)).extract(text, context);
    const narrowed = (await matchersForEachText.get(db, context, text)).extract(text, context);
    expect(narrowed).toEqual(whole);
    expect(whole.map((mention) => mention.businessId)).toEqual(expect.arrayContaining(inCity.slice(0, 4).map((business) => business.id)));

    const wholeNames = await loadDictionary(db, context);
    const narrowedNames = await loadDictionary(db, context, foldForMatching(text));
    expect(narrowedNames.length).toBeLessThan(wholeNames.length);
    expect(narrowedNames.filter((entry) => entry.kind === "name").length).toBeLessThanOrEqual(
      4 + wholeNames.filter((entry) => /[^ -~]/.test(entry.name)).length,
    );
  });
});
