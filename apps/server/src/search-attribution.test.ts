import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, importRegistry, scanOsmExtract } from "@directory/api";
import { listingOfRecord, OSM_EXTRACTS, SMALL_TEST_WORLD } from "@directory/api/testing";
import { businesses, cities } from "@directory/db";
import { createDirectoryClient } from "@directory/sdk";
import type { TEntityProfile, TGetAgentProfileOutput, TGetPartnerFeedOutput } from "@directory/api/schemas";
import { getJson, type McpAnswer, startTestServer, type TestServer, type ToolResult } from "./testing";
import type { GraphqlResponse } from "./graphql/graphql-fixtures";

/*
 * Search results carry the licence notices their listings owe (issue 41, attribution): a page
 * holding a listing imported from OpenStreetMap names the ODbL line with its link on every door
 * (REST and the assistant plugin, tRPC, MCP text, GraphQL, the /browse and /search pages); a page of
 * demo listings names none. And a business no source gives an address (an OpenStreetMap element
 * without addr:* tags, in no addressed building) has none on any door: null where the field may be
 * null, left out of sentences and of the JSON-LD, never an empty string (issue 41). One import of
 * Liechtenstein 2015 serves both.
 */

const OSM_LINE = {
  text: "Data © OpenStreetMap contributors, available under the Open Database Licence",
  licence: "ODbL-1.0",
  url: "https://www.openstreetmap.org/copyright",
};
const PAGE_LINE = /<p class="attribution">Data © OpenStreetMap contributors[^<]*\(<a href="https:\/\/www\.openstreetmap\.org\/copyright">ODbL-1\.0<\/a>\)<\/p>/;

let server: TestServer;
/** A demo business's category and city: a search there lists demo businesses only. */
let demo: { category: string; city: string };
/** An imported business without an address, and its name. */
let noAddress: { slug: string; name: string };

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
  const scan = await scanOsmExtract(OSM_EXTRACTS.liechtenstein2015);
  await importRegistry(server.database.db, scan, { source: "openstreetmap" });
  const record = scan.records.find((candidate) => !candidate.facts.address && !candidate.facts.postalCode && candidate.facts.name)!;
  const listing = await listingOfRecord(server.database.db, record.recordId);
  expect(listing.address).toBeNull();
  noAddress = { slug: listing.slug, name: record.facts.name };
  const [row] = await server.database.db
    .select({ category: businesses.categorySlug, city: cities.name })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(and(eq(businesses.isDemo, true), eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
    .orderBy(asc(businesses.slug))
    .limit(1);
  demo = row!;
}, 180_000);
afterAll(async () => {
  await server?.close();
});

type Page = { businesses: unknown[]; attributions: unknown[] };

/** Each search as REST serves it, for Liechtenstein's imported listings and for the demo business's category and city. */
const restSearches = () => [
  ["/api/v2/category-search?category=hotel&country=LI", `/api/v2/category-search?category=${demo.category}&city=${demo.city}`],
  ["/api/v2/keyword-search?query=hotel&country=LI", `/api/v2/keyword-search?query=${demo.category}&city=${demo.city}`],
  ["/api/v2/listicle?category=restaurant&city=Vaduz&country=LI", `/api/v2/listicle?category=${demo.category}&city=${demo.city}`],
  ["/api/v2/businesses?category=restaurant&country=LI", `/api/v2/businesses?category=${demo.category}&city=${demo.city}`],
];

describe("REST and tRPC", () => {
  it("each REST search lists the ODbL line for Liechtenstein's listings, and none for demo ones", async () => {
    for (const [imported, demoPath] of restSearches()) {
      const li = await getJson<Page>(server.url, imported!);
      expect(li.status, imported).toBe(200);
      expect(li.body.businesses.length, imported).toBeGreaterThan(0);
      expect(li.body.attributions, imported).toEqual([OSM_LINE]);
      const plain = await getJson<Page>(server.url, encodeURI(demoPath!));
      expect(plain.status, demoPath).toBe(200);
      expect(plain.body.businesses.length, demoPath).toBeGreaterThan(0);
      expect(plain.body.attributions, demoPath).toEqual([]);
    }
  });

  it("the assistant plugin (spec 4.1) keeps its envelope and adds the ODbL line for Liechtenstein's listings, none for demo ones", async () => {
    const li = await getJson<Page & { query: unknown; browseUrl: string }>(server.url, "/api/assistant-plugin?category=restaurant&city=Vaduz");
    expect(li.status).toBe(200);
    expect(li.body.businesses.length).toBeGreaterThan(0);
    expect(li.body).toMatchObject({ total: li.body.businesses.length, query: { category: "restaurant", city: "Vaduz" }, browseUrl: expect.any(String) });
    expect(li.body.attributions).toEqual([OSM_LINE]);
    const plain = await getJson<Page>(server.url, encodeURI(`/api/assistant-plugin?category=${demo.category}&city=${demo.city}`));
    expect(plain.body.businesses.length).toBeGreaterThan(0);
    expect(plain.body.attributions).toEqual([]);
  });

  it("the SDK (tRPC) says the same", async () => {
    const sdk = createDirectoryClient({ baseUrl: server.url }).search;
    expect((await sdk.searchCategory.query({ category: "hotel", country: "LI" })).attributions).toEqual([OSM_LINE]);
    expect((await sdk.searchKeyword.query({ query: "hotel", country: "LI" })).attributions).toEqual([OSM_LINE]);
    expect((await sdk.getListicle.query({ category: "restaurant", city: "Vaduz", country: "LI" })).attributions).toEqual([OSM_LINE]);
    expect((await sdk.lookupBusinesses.query({ category: "restaurant", country: "LI" })).attributions).toEqual([OSM_LINE]);
    expect((await sdk.searchCategory.query({ category: demo.category, city: demo.city })).attributions).toEqual([]);
  });
});

async function mcpText(tool: string, args: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } }),
  });
  const result = ((await response.json()) as McpAnswer<ToolResult>).result!;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.content.map((part) => part.text).join("\n");
}

describe("MCP and GraphQL", () => {
  it("each MCP search tool's text ends with one attribution line for imported listings, none for demo ones", async () => {
    const line = `${OSM_LINE.text} (${OSM_LINE.licence}, ${OSM_LINE.url})`;
    for (const [tool, args] of [
      ["search_businesses", { category: "hotel", country: "LI" }],
      ["search_by_keyword", { query: "hotel", country: "LI" }],
      ["get_listicle", { category: "restaurant", city: "Vaduz", country: "LI" }],
    ] as const) {
      const text = await mcpText(tool, args);
      expect(text.split("\n").at(-1), tool).toBe(line);
      expect(text.split(OSM_LINE.url), tool).toHaveLength(2);
    }
    const plain = await mcpText("search_businesses", { category: demo.category, city: demo.city });
    expect(plain).toContain("businesses (");
    expect(plain).not.toContain("attributions");
    expect(plain).not.toContain("openstreetmap.org/copyright");
  });

  it("GraphQL: searchCategory, searchKeyword and lookupBusinesses carry attributions", async () => {
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        query: `query ($category: String, $city: String) {
          searchCategory(category: "hotel", country: "LI") { attributions { text licence url } }
          searchKeyword(query: "hotel", country: "LI") { attributions { licence url } }
          lookupBusinesses(category: "restaurant", country: "LI") { attributions { licence url } }
          demo: searchCategory(category: $category, city: $city) { businesses { slug } attributions { licence } }
        }`,
        variables: demo,
      }),
    });
    type Field = { attributions: unknown[]; businesses?: unknown[] };
    const { data, errors } = (await response.json()) as GraphqlResponse<Record<"searchCategory" | "searchKeyword" | "lookupBusinesses" | "demo", Field>>;
    expect(errors).toBeUndefined();
    expect(data!.searchCategory.attributions).toEqual([OSM_LINE]);
    expect(data!.searchKeyword.attributions).toEqual([{ licence: OSM_LINE.licence, url: OSM_LINE.url }]);
    expect(data!.lookupBusinesses.attributions).toEqual([{ licence: OSM_LINE.licence, url: OSM_LINE.url }]);
    expect(data!.demo.businesses!.length).toBeGreaterThan(0);
    expect(data!.demo.attributions).toEqual([]);
  });
});

describe("the pages", () => {
  const page = async (path: string) => {
    const response = await fetch(`${server.url}${encodeURI(path)}`, { headers: { accept: "text/html" } });
    expect(response.status, path).toBe(200);
    return response.text();
  };

  it("/browse and /search print the attribution line under Liechtenstein's results, and none under demo ones", async () => {
    expect(await page("/browse?category=restaurant&country=LI")).toMatch(PAGE_LINE);
    expect(await page("/search?q=hotel&country=LI")).toMatch(PAGE_LINE);
    const plainBrowse = await page(`/browse?category=${demo.category}&city=${demo.city}`);
    expect(plainBrowse).toContain('<ol class="results"');
    expect(plainBrowse).not.toContain('class="attribution"');
    expect(await page(`/search?q=${demo.category}&city=${demo.city}`)).not.toContain('class="attribution"');
  });
});

interface Listing {
  slug: string;
  address: string | null;
}

describe("a business without an address", () => {
  it("REST profile: contact.address is null and the JSON-LD has no streetAddress", async () => {
    const { status, body } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${noAddress.slug}`);
    expect(status).toBe(200);
    expect(body.contact.address).toBeNull();
    const address = (body.structuredData as { address: Record<string, unknown> }).address;
    expect(address).not.toHaveProperty("streetAddress");
    expect(address).toMatchObject({ "@type": "PostalAddress", addressLocality: body.identity.city, addressCountry: "LI" });
  });

  it("GraphQL: the contact's address is null", async () => {
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ entity(slug: "${noAddress.slug}") { contact { address } } }` }),
    });
    const { data } = (await response.json()) as { data: { entity: { contact: { address: string | null } } } };
    expect(data.entity.contact).toEqual({ address: null });
  });

  it("agent.json says where it is without an empty street", async () => {
    const { body } = await getJson<TGetAgentProfileOutput>(server.url, `/business/${noAddress.slug}/agent.json`);
    const where = body.intents.find((intent) => intent.query.startsWith("Where is"))!;
    expect(where.answer).toMatch(/^In [^,]+, [^,]+, LI; no street address is known\.$/);
    expect(where.confidence).toBeGreaterThan(0);
    expect(body.actions.find((action) => action.actionId === "navigate")!.description).toContain("no street address is known");
  });

  it("the page says no street address is known, and its listing line has no empty part", async () => {
    const html = await (await fetch(`${server.url}/business/${noAddress.slug}`)).text();
    const location = html.slice(html.indexOf('<h2 id="location">'), html.indexOf('<h2 id="hours">'));
    expect(location).toContain("<p>No street address known</p>");
    const browse = /<a href="([^"]+)">All [^<]+ listings in/.exec(html)![1]!.replace(/&amp;/g, "&");
    const listingPage = await (await fetch(`${server.url}${browse}`)).text();
    const line = listingPage.slice(listingPage.indexOf(`href="/business/${noAddress.slug}"`)).split("</li>")[0]!;
    expect(line).toContain(noAddress.name.replace(/&/g, "&amp;"));
    expect(line).not.toMatch(/·\s+·/);
  });

  it("search results carry null, not an empty string", async () => {
    const { body: profile } = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${noAddress.slug}`);
    const query = new URLSearchParams({ category: profile.identity.categorySlug, city: profile.identity.city, limit: "50" });
    const { status, body } = await getJson<{ businesses: Listing[] }>(server.url, `/api/v2/businesses?${query.toString()}`);
    expect(status).toBe(200);
    expect(body.businesses.find((listing) => listing.slug === noAddress.slug)).toMatchObject({ address: null });
    expect(body.businesses.filter((listing) => listing.address === "")).toEqual([]);
  });

  // Last: it makes the business owner-verified, which the feed needs.
  it("the partner feed and the export: a PostalAddress without streetAddress", async () => {
    const partner = { authorization: `Bearer ${(await createApiKey(server.database.db, { kind: "partner" })).key}` };
    const verified = await fetch(`${server.url}/api/v2/admin/businesses/verify-owner`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.adminKey}` },
      body: JSON.stringify({ slug: noAddress.slug }),
    });
    expect(verified.status).toBe(200);
    const [row] = await server.database.db.select({ id: businesses.id }).from(businesses).where(eq(businesses.slug, noAddress.slug));
    const { body } = await getJson<TGetPartnerFeedOutput>(server.url, "/api/v2/partner-feed?limit=500", partner);
    const location = body.locations.find((candidate) => candidate.identifier === row!.id)!;
    expect(location.address).toMatchObject({ "@type": "PostalAddress", addressCountry: "LI" });
    expect(location.address).not.toHaveProperty("streetAddress");
    const exported = await (await fetch(`${server.url}/api/v2/partner-feed/export`, { headers: partner })).text();
    expect(exported).toContain(row!.id);
    expect(exported).not.toContain('"streetAddress":""');
  });
});
