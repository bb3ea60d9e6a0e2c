import { describe, expect, it } from "vitest";
import { CATEGORIES } from "@directory/db/seed";
import { classifyTags, NOT_BUSINESS_TAGS, OSM_CATEGORY_TABLE } from "./category-map";
import { scanOsmExtract } from "./scan-osm";
import { OSM_EXTRACTS } from "./test-extracts";

const categoryOf = (tags: Record<string, string>) => {
  const found = classifyTags({ name: "X", ...tags });
  return found?.kind === "business" ? found.category : found;
};

describe("OSM category mapping", () => {
  it.each([
    [{ tourism: "hotel" }, "hotel"],
    [{ tourism: "guest_house" }, "hotel"],
    [{ amenity: "restaurant" }, "restaurant"],
    [{ shop: "supermarket" }, "grocery-store"],
    [{ amenity: "bank" }, "bank"],
    [{ amenity: "pharmacy" }, "pharmacy"],
    [{ healthcare: "pharmacy" }, "pharmacy"],
    [{ amenity: "fuel" }, "fuel-station"],
    [{ amenity: "post_office" }, "post-office"],
    [{ tourism: "museum" }, "museum"],
    [{ amenity: "pub" }, "bar"],
    [{ amenity: "fast_food" }, "fast-food"],
    [{ amenity: "kindergarten" }, "child-care"],
    [{ craft: "plumber" }, "plumber"],
    [{ office: "lawyer" }, "lawyer"],
    // Issue 41: common tags that were dropped as unmapped.
    [{ amenity: "casino" }, "casino"],
    [{ shop: "gift" }, "gift-shop"],
    [{ tourism: "gallery" }, "art-gallery"],
    [{ shop: "art" }, "art-gallery"],
    [{ shop: "butcher" }, "butcher"],
    [{ shop: "deli" }, "deli"],
    [{ shop: "newsagent" }, "newsagent"],
    [{ amenity: "theatre" }, "theatre"],
    [{ tourism: "zoo" }, "zoo"],
    [{ shop: "department_store" }, "department-store"],
    [{ amenity: "car_rental" }, "car-rental"],
    [{ shop: "funeral_directors" }, "funeral-home"],
    [{ shop: "music" }, "music-store"],
  ])("%o is %s", (tags, slug) => {
    expect(categoryOf(tags)).toBe(slug);
  });

  it.each(["bench", "parking", "waste_basket", "post_box", "toilets", "atm", "bicycle_parking", "recycling"])("amenity=%s is never a business", (value) => {
    expect(classifyTags({ name: "Named anyway", amenity: value })).toEqual({ kind: "not-business", tag: `amenity=${value}` });
  });

  it("reports a tag it cannot map, by the tag that made the element a candidate", () => {
    expect(classifyTags({ name: "St. Florin", amenity: "place_of_worship" })).toEqual({ kind: "unmapped", tag: "amenity=place_of_worship" });
    // A mapped tag wins over an unmapped one on another key.
    expect(classifyTags({ name: "Hotel Post", amenity: "place_of_worship", tourism: "hotel" })).toEqual({
      kind: "business",
      category: "hotel",
      tag: "tourism=hotel",
    });
  });

  it("leaves elements without a business key alone", () => {
    expect(classifyTags({ name: "Rhein", waterway: "river" })).toBeNull();
    expect(classifyTags({ name: "No shop", shop: "no" })).toBeNull();
  });

  it("maps only to categories of the taxonomy, and no tag is both a business and street furniture", () => {
    const slugs = new Set<string>(CATEGORIES.map((category) => category.slug));
    const unknown = Object.entries(OSM_CATEGORY_TABLE).filter(([, slug]) => !slugs.has(slug));
    expect(unknown).toEqual([]);
    expect(Object.keys(OSM_CATEGORY_TABLE).filter((tag) => NOT_BUSINESS_TAGS.has(tag))).toEqual([]);
  });

  it("gives the registry-only categories real schema.org types and no demo weight", () => {
    const registryOnly = Object.fromEntries(
      CATEGORIES.filter((category) => category.popularity === 0).map((category) => [category.slug, category.schemaOrgType]),
    );
    expect(registryOnly).toMatchObject({
      bank: "BankOrCreditUnion",
      "fuel-station": "GasStation",
      "post-office": "PostOffice",
      museum: "Museum",
      casino: "Casino",
      "art-gallery": "ArtGallery",
      theatre: "PerformingArtsTheater",
      zoo: "Zoo",
      "department-store": "DepartmentStore",
      "car-rental": "AutoRental",
      "music-store": "MusicStore",
    });
  });

  it("the real extracts: the newly mapped tags are listings, no longer reported as unmapped", async () => {
    const [liechtenstein, andorra] = await Promise.all([scanOsmExtract(OSM_EXTRACTS.liechtenstein2015), scanOsmExtract(OSM_EXTRACTS.andorra2013)]);
    const categories = new Set([...liechtenstein.records, ...andorra.records].map((record) => record.facts.category));
    for (const slug of ["butcher", "theatre", "zoo", "music-store", "gift-shop"]) expect(categories, slug).toContain(slug);
    const mapped = Object.keys(OSM_CATEGORY_TABLE);
    expect(Object.keys({ ...liechtenstein.unmappedTags, ...andorra.unmappedTags }).filter((tag) => mapped.includes(tag))).toEqual([]);
  });
});
