import { count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { businesses, cities } from "@directory/db";
import { atLocal } from "@directory/api/testing";
import { createDirectoryClient } from "@directory/sdk";
import type { TGetListicleOutput, TListing, TLookupBusinessesOutput, TSearchCategoryOutput, TSearchKeywordOutput } from "@directory/api/schemas";
import { type ErrorBody, getJson, startTestServer, type TestServer } from "./testing";
import type { GraphqlResponse } from "./graphql/graphql-fixtures";

/*
 * openNow/openAt, near/radiusKm and sort=distance on every door that lists (REST, tRPC through the
 * SDK, MCP, GraphQL): the same answer as the procedure, and a malformed parameter refused with a
 * 400 (or the door's own form of it) naming the parameter. The procedures' behaviour itself is
 * tested against oracles in packages/api/src/routers/search/where-when.test.ts.
 */

let server: TestServer;
let mcp: Client;
let pair: { category: string; city: string; lat: number; lng: number };
/** A Tuesday at 10:00 in the pair's city. */
let OPEN_AT: string;

beforeAll(async () => {
  server = await startTestServer();
  mcp = new Client({ name: "where-when-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
  const [busiest] = await server.database.db
    .select({ category: businesses.categorySlug, city: cities.name, lat: cities.lat, lng: cities.lng, timeZone: cities.timeZone })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(eq(businesses.status, "active"))
    .groupBy(businesses.categorySlug, cities.name, cities.lat, cities.lng, cities.timeZone)
    .orderBy(desc(count()))
    .limit(1);
  pair = { ...busiest!, lat: Number(busiest!.lat), lng: Number(busiest!.lng) };
  OPEN_AT = atLocal("2026-05-12T10:00:00", busiest!.timeZone!);
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await server?.close();
});

const ids = (body: { businesses: Pick<TListing, "id">[] }): string[] => body.businesses.map((listing) => listing.id);
const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();

/** A tool's result; search_businesses's structured content is the category search's output. */
async function tool(name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: TSearchCategoryOutput }> {
  return (await mcp.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: TSearchCategoryOutput };
}

/** POST a GraphQL query; D is the data it selects. */
async function graphql<D = unknown>(document: string, variables: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query: document, variables }),
  });
  return { status: response.status, body: (await response.json()) as GraphqlResponse<D> };
}

describe("every door answers the same filtered search", () => {
  it("openAt: REST, the SDK, MCP and GraphQL list the same open businesses with openNow and nextChange", async () => {
    const rest = await getJson<TSearchCategoryOutput>(
      server.url,
      `/api/v2/category-search?${query({ category: pair.category, city: pair.city, limit: 10, openAt: OPEN_AT })}`,
    );
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.businesses.length).toBeGreaterThan(0);
    expect(rest.body.excludedUnknownHours).toEqual(expect.any(Number));
    for (const listing of rest.body.businesses) expect(listing).toMatchObject({ openNow: true, openingHours: expect.any(String) });

    const sdk = await createDirectoryClient({ baseUrl: server.url }).search.searchCategory.query({
      category: pair.category,
      city: pair.city,
      limit: 10,
      openAt: OPEN_AT,
    });
    expect(ids(sdk)).toEqual(ids(rest.body));
    expect(sdk.totalMatches).toBe(rest.body.totalMatches);

    const mcpResult = await tool("search_businesses", { category: pair.category, city: pair.city, limit: 10, openAt: OPEN_AT });
    expect(mcpResult.isError, JSON.stringify(mcpResult.content)).toBeFalsy();
    expect(ids(mcpResult.structuredContent!)).toEqual(ids(rest.body));
    expect(mcpResult.structuredContent!.excludedUnknownHours).toBe(rest.body.excludedUnknownHours);
    const text = (mcpResult.content[0] as { text: string }).text;
    expect(text).toMatch(/openNow/);

    const gql = await graphql<{ searchCategory: Pick<TSearchCategoryOutput, "excludedUnknownHours"> & { businesses: Pick<TListing, "id">[] } }>(
      `
        query ($category: String, $city: String, $openAt: String) {
          searchCategory(category: $category, city: $city, limit: 10, openAt: $openAt) {
            totalMatches
            excludedUnknownHours
            businesses {
              id
              openNow
              openingHours
              nextChange {
                change
                utc
                local
              }
            }
          }
        }
      `,
      { category: pair.category, city: pair.city, openAt: OPEN_AT },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(ids(gql.body.data!.searchCategory)).toEqual(ids(rest.body));
    expect(gql.body.data!.searchCategory.excludedUnknownHours).toBe(rest.body.excludedUnknownHours);
  });

  it('near: REST takes "<lat>,<lng>", the others { lat, lng }; distanceKm on each listing, nearest first', async () => {
    const near = `${pair.lat},${pair.lng}`;
    const rest = await getJson<TLookupBusinessesOutput>(
      server.url,
      `/api/v2/businesses?${query({ near, radiusKm: 3, sort: "distance", limit: 10, openNow: "false" })}`,
    );
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const km = rest.body.businesses.map((listing) => listing.distanceKm!);
    expect(km.length).toBeGreaterThan(0);
    expect(km.every((d) => d <= 3)).toBe(true);
    expect(km).toEqual([...km].sort((a, b) => a - b));

    const point = { lat: pair.lat, lng: pair.lng };
    const mcpResult = await tool("search_businesses", { near: point, radiusKm: 3, sort: "distance", limit: 10 });
    expect(mcpResult.isError, JSON.stringify(mcpResult.content)).toBeFalsy();
    expect(ids(mcpResult.structuredContent!)).toEqual(ids(rest.body));
    const gql = await graphql<{ lookupBusinesses: { businesses: Pick<TListing, "id">[] } }>(
      `
        query ($near: Point) {
          lookupBusinesses(near: $near, radiusKm: 3, sort: distance, limit: 10) {
            businesses {
              id
              distanceKm
            }
          }
        }
      `,
      {
        near: point,
      },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(ids(gql.body.data!.lookupBusinesses)).toEqual(ids(rest.body));
    const keyword = await getJson<TSearchKeywordOutput>(
      server.url,
      `/api/v2/keyword-search?${query({ query: pair.category, near, radiusKm: 3, sort: "distance" })}`,
    );
    expect(keyword.status).toBe(200);
    expect(keyword.body.businesses.every((listing) => listing.distanceKm! <= 3)).toBe(true);
    const listicle = await getJson<TGetListicleOutput>(
      server.url,
      `/api/v2/listicle?${query({ category: pair.category, city: pair.city, near, openAt: OPEN_AT })}`,
    );
    expect(listicle.status).toBe(200);
    expect(listicle.body.businesses.every((listing) => listing.openNow === true && typeof listing.distanceKm === "number")).toBe(true);
  });
});

describe("a malformed parameter is refused, naming it, on every door", () => {
  const cases: [string, Record<string, string | number>, Record<string, unknown>][] = [
    ["openAt", { openAt: "2026-05-12 10:00" }, { openAt: "2026-05-12 10:00" }],
    ["openNow", { openNow: "yes" }, { openNow: "yes" }],
    ["near", { near: "91,0" }, { near: { lat: 91, lng: 0 } }],
    ["radiusKm", { near: "19,72", radiusKm: 60 }, { near: { lat: 19, lng: 72 }, radiusKm: 60 }],
    ["sort", { sort: "distance" }, { sort: "distance" }],
  ];

  it.each(cases)("%s", async (parameter, restParams, typedArgs) => {
    for (const path of ["/api/v2/category-search", "/api/v2/businesses", "/api/v2/listicle"]) {
      const rest = await getJson<ErrorBody>(server.url, `${path}?${query({ category: pair.category, city: pair.city, ...restParams })}`);
      expect(rest.status, path).toBe(400);
      expect(rest.body.code, path).toBe("INVALID_INPUT");
      expect(rest.body.error, path).toContain(parameter);
    }
    const keyword = await getJson<ErrorBody>(server.url, `/api/v2/keyword-search?${query({ query: pair.category, ...restParams })}`);
    expect(keyword.status).toBe(400);
    expect(keyword.body.error).toContain(parameter);

    const mcpResult = await tool("search_businesses", { category: pair.category, city: pair.city, ...typedArgs });
    expect(mcpResult.isError).toBe(true);
    expect(JSON.stringify(mcpResult.content)).toContain(parameter);
  });

  it("GraphQL: a value the procedure refuses is an error naming the parameter", async () => {
    const gql = await graphql(
      `
        query {
          searchCategory(category: "dentist", near: { lat: 91, lng: 0 }) {
            total
          }
        }
      `,
      {},
    );
    expect(gql.body.errors?.[0]?.message).toContain("near");
    const radius = await graphql(
      `
        query {
          lookupBusinesses(category: "dentist", city: "Mumbai", radiusKm: 2) {
            total
          }
        }
      `,
      {},
    );
    expect(radius.body.errors?.[0]?.message).toContain("radiusKm");
  });
});
