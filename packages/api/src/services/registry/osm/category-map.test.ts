import { describe, expect, it } from "vitest";
import { CATEGORIES } from "@directory/db/seed";
import { classifyTags, NOT_BUSINESS_TAGS, OSM_CATEGORY_TABLE } from "./category-map";

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
    expect(registryOnly).toMatchObject({ bank: "BankOrCreditUnion", "fuel-station": "GasStation", "post-office": "PostOffice", museum: "Museum" });
  });
});
