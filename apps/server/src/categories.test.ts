import { and, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businesses, categories } from "@directory/db";
import type { TGetAgenticGatewayOutput, TListCategoriesOutput, TLookupBusinessesOutput } from "@directory/api/schemas";
import { getJson, type OpenApiDocument, SMALL_TEST_WORLD, startTestServer, type TestServer, type TrpcResult } from "./testing";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await server?.close();
});

/** Servable businesses per category, counted in SQL apart from the service. */
async function countsInSql(): Promise<Map<string, number>> {
  const servable = and(eq(businesses.status, "active"), or(isNull(businesses.subscriptionExpiresAt), gt(businesses.subscriptionExpiresAt, sql`now()`)));
  const rows = await server.database.db.select({ slug: businesses.categorySlug, n: count() }).from(businesses).where(servable).groupBy(businesses.categorySlug);
  return new Map(rows.map((row) => [row.slug, Number(row.n)]));
}

describe("GET /api/v2/categories", () => {
  it("lists every category with slug, name, synonyms and its count of servable listings, publicly cacheable", async () => {
    const { status, body, headers } = await getJson<TListCategoriesOutput>(server.url, "/api/v2/categories");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toMatch(/public/);
    const all = await server.database.db.select().from(categories).orderBy(categories.slug);
    expect(body.total).toBe(all.length);
    const counts = await countsInSql();
    expect(body.categories).toEqual(all.map((row) => ({ slug: row.slug, name: row.name, synonyms: row.synonyms, listings: counts.get(row.slug) ?? 0 })));
    expect(Number.isNaN(Date.parse(body.listingsCountedAt))).toBe(false);
    // The slugs are the values the category parameters take.
    const busiest = body.categories.reduce((a, b) => (b.listings > a.listings ? b : a));
    const [city] = await server.database.db
      .select({ name: sql<string>`(select name from cities where id = ${businesses.cityId})` })
      .from(businesses)
      .where(and(eq(businesses.categorySlug, busiest.slug), eq(businesses.status, "active")))
      .limit(1);
    const lookup = await getJson<TLookupBusinessesOutput>(server.url, `/api/v2/businesses?category=${busiest.slug}&city=${encodeURIComponent(city!.name)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.category!.slug).toBe(busiest.slug);
  });

  it("is documented in OpenAPI as listCategories and reachable over tRPC as search.listCategories", async () => {
    const openapi = await getJson<OpenApiDocument>(server.url, "/api/openapi.json");
    const operation = openapi.body.paths["/api/v2/categories"]!.get!;
    expect(operation.operationId).toBe("listCategories");
    expect(operation.description).toMatch(/At most 500 categories/);
    const trpc = await getJson<TrpcResult<TListCategoriesOutput>>(
      server.url,
      "/trpc/search.listCategories?input=" + encodeURIComponent(JSON.stringify({ json: {} })),
    );
    expect(trpc.status).toBe(200);
    expect(trpc.body.result.data.json.total).toBeGreaterThan(50);
  });

  it("appears in the agentic gateway for anonymous callers, with its REST route", async () => {
    const { body } = await getJson<TGetAgenticGatewayOutput>(server.url, "/api/agentic-gateway");
    expect(body.mayCall.filter((op) => op.operation === "listCategories")).toEqual([
      { operation: "listCategories", rest: "GET /api/v2/categories", mcpTool: null },
    ]);
  });
});
