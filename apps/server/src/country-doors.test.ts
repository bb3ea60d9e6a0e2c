import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { importRegistry, scanOsmExtract } from "@directory/api";
import { OSM_EXTRACTS, SMALL_TEST_WORLD } from "@directory/api/testing";
import { createDirectoryClient } from "@directory/sdk";
import type { TListing } from "@directory/api/schemas";
import { type ErrorBody, getJson, type OpenApiDocument, startTestServer, type TestServer } from "./testing";
import type { GraphqlResponse } from "./graphql/graphql-fixtures";

/*
 * country=<ISO 3166-1 alpha-2> on every door (issue 41): REST (and its OpenAPI document), tRPC
 * through the SDK, the MCP tools, GraphQL and the browse and search pages, on the real
 * Liechtenstein extract imported beside the small demo world. Each door lists Liechtenstein's
 * listings for LI and none for Andorra (no listing there), and refuses a code that is not one with
 * its own form of a 400 naming country. The rule itself is tested in
 * packages/api/src/routers/search/country-and-places.test.ts.
 */

let server: TestServer;
let mcp: Client;

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  await importRegistry(server.database.db, await scanOsmExtract(OSM_EXTRACTS.liechtenstein2015), { source: "openstreetmap" });
  mcp = new Client({ name: "country-doors-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
}, 180_000);
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await server?.close();
});

type Listings = { businesses: Pick<TListing, "id" | "country">[] };
const countries = (body: Listings) => new Set(body.businesses.map((listing) => listing.country));

/** The REST searches and the cities list, each with a country that has listings ("LI", in lower case too) and one without. */
const REST_SEARCHES = [
  "/api/v2/category-search?category=hotel&limit=10",
  "/api/v2/keyword-search?query=hotel&limit=10",
  "/api/v2/listicle?category=restaurant&city=Vaduz&limit=10",
  "/api/v2/businesses?category=restaurant&limit=10",
];

describe("REST", () => {
  it.each(REST_SEARCHES)("%s&country=li lists Liechtenstein's only; country=AD none", async (path) => {
    const li = await getJson<Listings & { totalMatches: number }>(server.url, `${path}&country=li`);
    expect(li.status, JSON.stringify(li.body)).toBe(200);
    expect(li.body.businesses.length).toBeGreaterThan(0);
    expect([...countries(li.body)]).toEqual(["LI"]);
    const ad = await getJson<Listings & { totalMatches: number }>(server.url, `${path}&country=AD`);
    // The listicle's city is looked up in the country: Andorra has no Vaduz.
    if (path.includes("listicle")) expect(ad.status).toBe(404);
    else expect(ad.body).toMatchObject({ businesses: [], totalMatches: 0 });
  });

  it("the cities list: Liechtenstein's cities for LI, none for AD", async () => {
    const li = await getJson<{ cities: { country: string }[] }>(server.url, "/api/v2/cities?category=restaurant&country=LI&limit=50");
    expect(li.status).toBe(200);
    expect(li.body.cities.length).toBeGreaterThan(1);
    expect(li.body.cities.every((city) => city.country === "LI")).toBe(true);
    expect((await getJson<{ cities: unknown[] }>(server.url, "/api/v2/cities?category=restaurant&country=ad")).body.cities).toEqual([]);
  });

  it.each([...REST_SEARCHES, "/api/v2/cities?category=hotel"])("%s with country=ZZ or LIE: 400 { error, code } naming country", async (path) => {
    for (const country of ["ZZ", "LIE"]) {
      const { status, body } = await getJson<ErrorBody>(server.url, `${path}&country=${country}`);
      expect(status).toBe(400);
      expect(body.code).toBe("INVALID_INPUT");
      expect(body.error).toContain("country");
    }
  });

  it("the OpenAPI document describes country on each of them, one schema for all", async () => {
    const { body } = await getJson<OpenApiDocument>(server.url, "/api/openapi.json");
    const schemas = ["/api/v2/category-search", "/api/v2/keyword-search", "/api/v2/listicle", "/api/v2/businesses", "/api/v2/cities"].map((path) => {
      const parameter = body.paths[path]!.get!.parameters!.find((candidate) => candidate.name === "country");
      expect(parameter, path).toBeDefined();
      expect(parameter!.required ?? false, path).toBe(false);
      return parameter!.schema;
    });
    expect(schemas[0]).toMatchObject({ type: "string", pattern: "^[A-Za-z]{2}$" });
    for (const schema of schemas) expect({ ...schema, description: undefined }).toEqual({ ...schemas[0], description: undefined });
  });
});

describe("tRPC (SDK), MCP and GraphQL", () => {
  it("the SDK: category and keyword search, the listicle, lookup and the cities list", async () => {
    const sdk = createDirectoryClient({ baseUrl: server.url }).search;
    expect(countries(await sdk.searchCategory.query({ category: "hotel", country: "LI" }))).toEqual(new Set(["LI"]));
    expect((await sdk.searchCategory.query({ category: "hotel", country: "AD" })).businesses).toEqual([]);
    expect(countries(await sdk.searchKeyword.query({ query: "hotel", country: "li" }))).toEqual(new Set(["LI"]));
    expect(countries(await sdk.getListicle.query({ category: "restaurant", city: "Vaduz", country: "LI" }))).toEqual(new Set(["LI"]));
    expect(countries(await sdk.lookupBusinesses.query({ category: "restaurant", country: "LI" }))).toEqual(new Set(["LI"]));
    expect((await sdk.availableCities.query({ category: "restaurant", country: "AD" })).cities).toEqual([]);
    await expect(sdk.searchCategory.query({ category: "hotel", country: "ZZ" })).rejects.toMatchObject({
      status: 400,
      code: "INVALID_INPUT",
      message: expect.stringContaining("country"),
    });
  });

  it("MCP: the search tools and get_available_cities take country; a bad code is a tool error naming it", async () => {
    const call = async (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });
    for (const [name, args] of [
      ["search_businesses", { category: "hotel" }],
      ["search_by_keyword", { query: "hotel" }],
      ["get_listicle", { category: "restaurant", city: "Vaduz" }],
    ] as const) {
      const li = await call(name, { ...args, country: "li" });
      expect(li.isError, JSON.stringify(li.content)).toBeFalsy();
      const listings = li.structuredContent as Listings;
      expect(listings.businesses.length, name).toBeGreaterThan(0);
      expect(countries(listings), name).toEqual(new Set(["LI"]));
      if (name !== "get_listicle") expect((await call(name, { ...args, country: "AD" })).structuredContent).toMatchObject({ businesses: [] });
      const bad = await call(name, { ...args, country: "ZZ" });
      expect(bad.isError, name).toBe(true);
      expect(JSON.stringify(bad.content), name).toContain("country");
    }
    const cities = await call("get_available_cities", { category: "restaurant", country: "LI" });
    expect((cities.structuredContent as { cities: { country: string }[] }).cities.every((city) => city.country === "LI")).toBe(true);
  });

  it("GraphQL: searchCategory, searchKeyword and lookupBusinesses take country", async () => {
    const post = async (country: string) => {
      const response = await fetch(`${server.url}/api/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          query: `query ($country: String) {
            searchCategory(category: "hotel", country: $country) { businesses { country } }
            searchKeyword(query: "hotel", country: $country) { country businesses { country } }
            lookupBusinesses(category: "restaurant", country: $country) { businesses { country } }
          }`,
          variables: { country },
        }),
      });
      return (await response.json()) as GraphqlResponse<Record<"searchCategory" | "searchKeyword" | "lookupBusinesses", { businesses: { country: string }[] }>>;
    };
    const li = await post("li");
    expect(li.errors).toBeUndefined();
    for (const field of ["searchCategory", "searchKeyword", "lookupBusinesses"] as const) {
      expect(li.data![field].businesses.length, field).toBeGreaterThan(0);
      expect(
        li.data![field].businesses.every((listing) => listing.country === "LI"),
        field,
      ).toBe(true);
    }
    const ad = await post("AD");
    for (const field of ["searchCategory", "searchKeyword", "lookupBusinesses"] as const) expect(ad.data![field].businesses, field).toEqual([]);
    const bad = await post("ZZ");
    expect(JSON.stringify(bad.errors)).toContain("country");
  });
});

describe("the pages", () => {
  const page = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: { accept: "text/html" } });
    return { status: response.status, text: await response.text() };
  };

  it("/browse takes a country instead of a city and keeps it in its form; a bad code is a 400 page", async () => {
    const li = await page("/browse?category=restaurant&country=LI");
    expect(li.status).toBe(200);
    expect(li.text).toMatch(/<h1>Restaurant in LI<\/h1>/);
    expect(li.text).toMatch(/id="f-country"[^>]*value="LI"/);
    expect(li.text).toMatch(/<p class="muted">\d+ businesses, showing 1–10<\/p>/);
    const ad = await page("/browse?category=restaurant&country=AD");
    expect(ad.status).toBe(200);
    expect(ad.text).toContain("No businesses are listed here yet.");
    expect((await page("/browse?category=restaurant&country=ZZ")).status).toBe(400);
  });

  it("/search takes country from its link", async () => {
    const li = await page("/search?q=hotel&country=LI");
    expect(li.status).toBe(200);
    expect(li.text).toContain("in LI");
    const ad = await page("/search?q=hotel&country=AD");
    expect(ad.text).toContain("Nothing matched.");
    expect((await page("/search?q=hotel&country=ZZ")).status).toBe(400);
  });
});
