import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyScoreRequests } from "@directory/db";
import type { TLookupBusinessesOutput, TSearchBusinessesOutput } from "@directory/api/schemas";
import { type ErrorBody, getJson, startTestServer, type TestServer } from "./testing";

const TIER_ORDER = ["premium", "pro", "basic", "free"];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** GET the assistant plugin; T is the body the test expects (its answer unless told otherwise). */
function search<T = TSearchBusinessesOutput>(query: string, headers?: Record<string, string>) {
  return getJson<T>(server.url, `/api/assistant-plugin?${query}`, headers);
}

describe("GET /api/assistant-plugin", () => {
  it("returns the spec 2.2 envelope with listings under score contract 2.1-phase0", async () => {
    const { status, body, headers } = await search("category=dentist&city=Mumbai");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/application\/json/);
    expect(body.total).toBe(5);
    expect(body.businesses).toHaveLength(5);
    expect(body.query).toEqual({ category: "dentist", city: "Mumbai" });
    expect(body.browseUrl).toMatch(/^http:\/\/directory\.test\/browse\?/);
    for (const listing of body.businesses) {
      expect(listing).toMatchObject({ category: "Dentist", city: "Mumbai", rankingModel: "plan-neutral-directory-completeness", recommended: false });
      for (const field of ["name", "state", "phone", "website", "description", "services", "usp", "profileUrl", "directoryCompletenessScoreLabel"] as const) {
        expect(typeof listing[field], field).toBe("string");
      }
      expect(listing.profileUrl).toBe(`http://directory.test/business/${listing.slug}`);
      expect(listing.directoryCompletenessScore).toBeGreaterThanOrEqual(0);
      expect(listing.directoryCompletenessScore).toBeLessThanOrEqual(100);
      expect(listing.directoryCompletenessScoreLabel).toMatch(/not a ranking factor/);
      expect(listing.directoryCompletenessScoreLabel).toMatch(/plan contribution is 0/);
    }
  });

  it("never exposes internal scores, even when a client asks for them, and counts the ask per day, route and key", async () => {
    const hitsOf = async () =>
      (await server.database.db.select().from(legacyScoreRequests)).filter((row) => row.route === "searchBusinesses" && row.apiKeyId === null);
    const before = (await hitsOf())[0]?.hits ?? 0;
    for (let i = 0; i < 2; i++) {
      const { status, body } = await search("category=dentist&city=Mumbai&fields=geoScore,visibilityScore");
      expect(status).toBe(200);
      expect(JSON.stringify(body)).not.toMatch(/geoScore|visibilityScore|geo_score|visibility_score/i);
    }
    const rows = await hitsOf();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requestedFields: "geoScore,visibilityScore", hits: before + 2, day: new Date().toISOString().slice(0, 10) });
  });

  it("orders premium, pro, basic, free, then name within equal scores, and only active businesses", async () => {
    const { body } = await search("category=dentist&city=Mumbai&limit=10");
    const tiers = body.businesses.map((b) => TIER_ORDER.indexOf(b.planTier));
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    expect(body.total).toBe(10);
  });

  it("resolves plurals, synonyms, case and city aliases to the same results", async () => {
    const canonical = await search("category=dentist&city=Mumbai&limit=10");
    expect(canonical.body.total).toBeGreaterThan(0);
    const names = canonical.body.businesses.map((b) => b.id);
    for (const query of ["category=Dentists&city=bombay", "category=dental%20clinic&city=MUMBAI", "category=DENTIST&city=Bombay,%20IN"]) {
      const { status, body } = await search(`${query}&limit=10`);
      expect(status, query).toBe(200);
      expect(
        body.businesses.map((b) => b.id),
        query,
      ).toEqual(names);
    }
  });

  it("answers 400 { error, code } naming the missing parameter", async () => {
    const noCategory = await search<ErrorBody>("city=Mumbai");
    expect(noCategory.status).toBe(400);
    expect(noCategory.body).toEqual({ error: expect.stringContaining("category"), code: "MISSING_PARAMETER" });
    const noCity = await search<ErrorBody>("category=dentist");
    expect(noCity.status).toBe(400);
    expect(noCity.body.error).toContain("city");
    expect(noCity.body.error).not.toContain("category");
  });

  it.each(["0", "11", "-1", "2.5", "abc"])("refuses limit=%s with a 400", async (limit) => {
    const { status, body } = await search<ErrorBody>(`category=dentist&city=Mumbai&limit=${limit}`);
    expect(status).toBe(400);
    expect(body.code).toBe("INVALID_INPUT");
    expect(body.error).toContain("limit");
    expect(JSON.stringify(body)).not.toMatch(/stack|at \w+ \(/);
  });

  it("returns an empty page for an unknown category or city", async () => {
    const { status, body } = await search("category=unicorn%20groomer&city=Mumbai");
    expect(status).toBe(200);
    expect(body.total).toBe(0);
    expect(body.businesses).toEqual([]);
  });
});

describe("GET /api/v2/businesses", () => {
  it("says what the query resolved to", async () => {
    const { status, body } = await getJson<TLookupBusinessesOutput>(server.url, "/api/v2/businesses?category=dentists&city=bombay&limit=20");
    expect(status).toBe(200);
    expect(body.category).toEqual({ slug: "dentist", name: "Dentist" });
    expect(body.city).toMatchObject({ name: "Mumbai", country: "IN" });
    expect(body.total).toBe(body.businesses.length);
    expect(body.limit).toBe(20);
  });

  it("resolves city aliases and accents", async () => {
    const bangalore = await getJson<TLookupBusinessesOutput>(server.url, "/api/v2/businesses?category=dentist&city=bangalore");
    expect(bangalore.body.city!.name).toBe("Bengaluru");
    const saoPaulo = await getJson<TLookupBusinessesOutput>(server.url, "/api/v2/businesses?category=dentist&city=sao%20paulo");
    expect(saoPaulo.body.city!.name).toBe("São Paulo");
  });

  it("is a 404 naming an unknown category or city", async () => {
    const category = await getJson(server.url, "/api/v2/businesses?category=unicorn&city=Mumbai");
    expect(category.status).toBe(404);
    expect(category.body).toEqual({
      error: expect.stringMatching(/^Unknown category "unicorn"\. .*GET \/api\/v2\/categories/),
      code: "NOT_FOUND",
      suggestions: [],
    });
    const city = await getJson<ErrorBody>(server.url, "/api/v2/businesses?category=dentist&city=Atlantis");
    expect(city.status).toBe(404);
    expect(city.body.error).toContain("Atlantis");
  });

  it("bounds limit at 50", async () => {
    const { status } = await getJson(server.url, "/api/v2/businesses?category=dentist&city=Mumbai&limit=51");
    expect(status).toBe(400);
  });
});
