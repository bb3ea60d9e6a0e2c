import { and, asc, count, desc, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { businesses, cities } from "@directory/db";
import type {
  TGetListicleOutput,
  TListing,
  TLookupBusinessesOutput,
  TSearchBusinessesOutput,
  TSearchCategoryOutput,
  TSearchKeywordOutput,
} from "@directory/api/schemas";
import { type ErrorBody, getJson, startTestServer, type TestServer } from "./testing";
import type { GraphqlResponse } from "./graphql/graphql-fixtures";

/** sort=rating on every door of the three searches, checked against SQL written apart from the service. */

let server: TestServer;
let mcp: Client;
let pair: { category: string; cityId: number; city: string };

const servable = () => and(eq(businesses.status, "active"), or(isNull(businesses.subscriptionExpiresAt), gt(businesses.subscriptionExpiresAt, sql`now()`)));

async function idsInRatingOrder(where: SQL | undefined, limit: number) {
  const rows = await server.database.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(servable(), where))
    .orderBy(sql`${businesses.rating} desc nulls last`, desc(businesses.reviewCount), asc(businesses.name), asc(businesses.id))
    .limit(limit);
  return rows.map((row) => row.id);
}
const inPair = () => and(eq(businesses.categorySlug, pair.category), eq(businesses.cityId, pair.cityId));
const ids = (body: { businesses: Pick<TListing, "id">[] }): string[] => body.businesses.map((listing) => listing.id);

/** A tool's result; S is its structured content: the output of the procedure the tool calls. */
async function tool<S = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: S }> {
  return (await mcp.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: S };
}

beforeAll(async () => {
  server = await startTestServer();
  mcp = new Client({ name: "sort-test", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
  const [busiest] = await server.database.db
    .select({ category: businesses.categorySlug, cityId: businesses.cityId, city: cities.name })
    .from(businesses)
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(servable())
    .groupBy(businesses.categorySlug, businesses.cityId, cities.name)
    .orderBy(desc(count()))
    .limit(1);
  pair = busiest!;
});
afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await server?.close();
});

describe("sort=rating over MCP", () => {
  it("search_businesses, get_listicle and search_by_keyword order by rating and disclose it", async () => {
    const expected = await idsInRatingOrder(inPair(), 6);
    const search = await tool<TSearchCategoryOutput>("search_businesses", { category: pair.category, city: pair.city, limit: 6, sort: "rating" });
    expect(search.isError, JSON.stringify(search.content)).toBeFalsy();
    expect(ids(search.structuredContent!)).toEqual(expected);
    expect(search.structuredContent!.rankingModel).toMatch(/^Ordered by rating/);
    expect(search.structuredContent!.businesses.every((listing) => Number.isInteger(listing.reviewCount))).toBe(true);

    const listicle = await tool<TGetListicleOutput>("get_listicle", { category: pair.category, city: pair.city, limit: 6, sort: "rating" });
    expect(ids(listicle.structuredContent!)).toEqual(expected);
    expect(listicle.structuredContent!.orderedBy).toBe("rating, then review count, then name");

    const keyword = await tool<TSearchKeywordOutput>("search_by_keyword", { query: pair.category, city: pair.city, limit: 6, sort: "rating" });
    expect(keyword.structuredContent!.rankingModel).toMatch(/^Ordered by rating/);
    const ratings = keyword.structuredContent!.businesses.map((listing): [number, number] => [listing.rating ?? -1, listing.reviewCount]);
    expect(ratings).toEqual([...ratings].sort((a, b) => b[0] - a[0] || b[1] - a[1]));

    const byDefault = await tool<TSearchCategoryOutput>("search_businesses", { category: pair.category, city: pair.city, limit: 6 });
    expect(byDefault.structuredContent!.rankingModel).toMatch(/^Ordered by plan tier/);
  });

  it("answers an unknown sort value with an error naming the accepted values", async () => {
    const result = await tool("search_businesses", { category: pair.category, sort: "stars" });
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/sort/);
    expect(text).toMatch(/ranking/);
    expect(text).toMatch(/rating/);
  });
});

describe("sort=rating over REST", () => {
  it("/api/v2/businesses and /api/assistant-plugin order by rating and name the order in rankingDisclosure", async () => {
    const query = `category=${encodeURIComponent(pair.category)}&city=${encodeURIComponent(pair.city)}`;
    const lookup = await getJson<TLookupBusinessesOutput>(server.url, `/api/v2/businesses?${query}&limit=8&sort=rating`);
    expect(lookup.status).toBe(200);
    expect(ids(lookup.body)).toEqual(await idsInRatingOrder(inPair(), 8));
    expect(lookup.body.rankingDisclosure).toMatch(/^Ordered by rating/);
    expect(lookup.body.businesses[0]!.reviewCount).toEqual(expect.any(Number));

    const plugin = await getJson<TSearchBusinessesOutput>(server.url, `/api/assistant-plugin?${query}&limit=4&sort=rating`);
    expect(plugin.status).toBe(200);
    expect(ids(plugin.body)).toEqual(await idsInRatingOrder(inPair(), 4));
    expect(plugin.body.rankingDisclosure).toMatch(/^Ordered by rating/);

    const byDefault = await getJson<TLookupBusinessesOutput>(server.url, `/api/v2/businesses?${query}&limit=8`);
    expect(byDefault.body.rankingDisclosure).toMatch(/^Ordered by plan tier/);
  });

  it("answers an unknown sort value with a 400 naming the parameter and the accepted values", async () => {
    const { status, body } = await getJson<ErrorBody>(
      server.url,
      `/api/v2/businesses?category=${encodeURIComponent(pair.category)}&city=${encodeURIComponent(pair.city)}&sort=stars`,
    );
    expect(status).toBe(400);
    expect(body.error).toMatch(/sort/);
    expect(body.error).toMatch(/"?ranking"?.*"?rating"?/);
  });
});

describe("sort over GraphQL", () => {
  it("takes sort as an enum and passes it to the procedure", async () => {
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `query($category: String!, $city: String) { searchCategory(category: $category, city: $city, limit: 5, sort: rating) { rankingModel businesses { id reviewCount } } }`,
        variables: { category: pair.category, city: pair.city },
      }),
    });
    const { data, errors } = (await response.json()) as GraphqlResponse<{
      searchCategory: Pick<TSearchCategoryOutput, "rankingModel"> & { businesses: Pick<TListing, "id" | "reviewCount">[] };
    }>;
    expect(errors).toBeUndefined();
    expect(data!.searchCategory.businesses.map((listing) => listing.id)).toEqual(await idsInRatingOrder(inPair(), 5));
    expect(data!.searchCategory.rankingModel).toMatch(/^Ordered by rating/);
  });
});
