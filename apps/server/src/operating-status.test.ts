import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { backfillListingFreshness, businesses, categories, cities, claims } from "@directory/db";
import type { TEntityProfile, TGetPartnerFeedChangesOutput, TSubmitCorrectionOutput } from "@directory/api/schemas";
import { type McpAnswer, SMALL_TEST_WORLD, startTestServer, type TestServer, type ToolResult } from "./testing";
import type { GraphqlResponse } from "./graphql/graphql-fixtures";

/**
 * Issue 25 item 1 on every door: a correction an admin accepts closes a business for good; it leaves
 * search and the partner feed (a remove with reason closed) and shows as closed on REST, agent.json,
 * GraphQL, MCP and its page, which all still answer 200.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD });
});
afterAll(async () => {
  await server?.close();
});

/** One call on any door; T is the body the test expects (the text, for a page). */
async function call<T = unknown>(method: string, path: string, body?: unknown, key?: string) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an HTML page
  }
  return { status: response.status, body: parsed as T };
}

describe("a permanently closed business", () => {
  it("leaves search and the feed, and shows as closed on every door", async () => {
    const [target] = await server.database.db
      .select({ id: businesses.id, slug: businesses.slug, category: categories.name, city: cities.name })
      .from(businesses)
      .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
      .innerJoin(cities, eq(cities.id, businesses.cityId))
      .where(and(eq(businesses.status, "active"), eq(businesses.ownership, "owner_verified"), isNull(businesses.subscriptionExpiresAt)))
      .orderBy(asc(businesses.slug))
      .limit(1);
    const partnerKey = (await createApiKey(server.database.db, { kind: "partner" })).key;
    const start = (await call<TGetPartnerFeedChangesOutput>("GET", "/api/v2/partner-feed/changes?after=0&limit=1000", undefined, partnerKey)).body.nextAfter;

    const submitted = await call<TSubmitCorrectionOutput>("POST", "/api/v2/corrections", {
      slug: target!.slug,
      operatingStatus: { status: "permanently_closed", closedOn: "2026-10-31" },
      evidence: "Closing-down notice on the door",
    });
    expect(submitted.status).toBe(201);
    const accepted = await call("POST", `/api/v2/admin/corrections/${submitted.body.correctionId}/accept`, {}, server.adminKey);
    expect(accepted.status).toBe(200);
    const closed = { status: "permanently_closed", closedOn: "2026-10-31" };

    const profile = await call<TEntityProfile>("GET", `/api/v2/entity-profile?slug=${target!.slug}`);
    expect(profile).toMatchObject({ status: 200, body: { operatingStatus: closed } });
    expect(profile.body.claims.find((claim) => claim.property === "operatingStatus")).toMatchObject({
      value: closed,
      verification: "admin_verified",
      source: `correction:${submitted.body.correctionId}`,
      stale: false,
    });
    const agent = await call("GET", `/business/${target!.slug}/agent.json`);
    expect(agent).toMatchObject({ status: 200, body: { entity: { operatingStatus: closed } } });
    const page = await call<string>("GET", `/business/${target!.slug}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Permanently closed");
    const graphql = await call<GraphqlResponse<{ entity: Pick<TEntityProfile, "operatingStatus"> }>>("POST", "/api/graphql", {
      query: `{ entity(slug: "${target!.slug}") { operatingStatus { status closedOn } } }`,
    });
    expect(graphql.body.data!.entity.operatingStatus).toEqual(closed);
    const mcp = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_business_profile", arguments: { slug: target!.slug } } }),
    });
    const tool = ((await mcp.json()) as McpAnswer<ToolResult<Pick<TEntityProfile, "operatingStatus">>>).result!;
    expect(tool.structuredContent!.operatingStatus).toEqual(closed);
    // The model's text says it first, in one line with the stale facts.
    expect(tool.content[0]!.text.split("\n")[0]).toMatch(/^standing: PERMANENTLY CLOSED since 2026-10-31; (no stale facts|\d+ stale facts?)/);

    const search = await call("GET", `/api/v2/businesses?category=${encodeURIComponent(target!.category)}&city=${encodeURIComponent(target!.city)}&limit=50`);
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body)).not.toContain(target!.slug);
    const changes = await call<TGetPartnerFeedChangesOutput>("GET", `/api/v2/partner-feed/changes?after=${start}&limit=1000`, undefined, partnerKey);
    expect(changes.body.changes).toContainEqual(expect.objectContaining({ action: "remove", id: target!.id, reason: "closed" }));
  });
});

async function mcpProfileText(slug: string): Promise<string> {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_business_profile", arguments: { slug } } }),
  });
  return ((await response.json()) as McpAnswer<ToolResult>).result!.content[0]!.text;
}

describe("stale facts", () => {
  it("are marked on the profile page and named in the MCP profile's standing line", async () => {
    const [target] = await server.database.db
      .select({ id: businesses.id, slug: businesses.slug })
      .from(businesses)
      .where(and(eq(businesses.status, "active"), isNull(businesses.temporaryClosure)))
      .orderBy(asc(businesses.slug))
      .offset(5)
      .limit(1);
    // The seed ages facts at random: start from every fact seen today.
    const observe = async (properties: string[] | null, daysAgo: number) => {
      await server.database.db
        .update(claims)
        .set({ observedAt: new Date(Date.now() - daysAgo * 86_400_000) })
        .where(and(eq(claims.businessId, target!.id), properties ? inArray(claims.property, properties) : undefined, isNull(claims.supersededAt)));
      await server.database.db.update(businesses).set({ factsStaleAfter: null }).where(eq(businesses.id, target!.id));
      await backfillListingFreshness(server.database.db);
    };
    await observe(null, 0);
    const fresh = await mcpProfileText(target!.slug);
    expect(fresh.split("\n")[0]).toMatch(/^standing: open; no stale facts; /);
    expect((await call<string>("GET", `/business/${target!.slug}`)).body).not.toContain("(stale)");

    // Hours and phone last seen two years ago: past their useful lives (180 and 365 days).
    await observe(["openingHours", "phone"], 730);

    const page = (await call<string>("GET", `/business/${target!.slug}`)).body;
    for (const label of ["Opening hours", "Phone"]) {
      const row = new RegExp(`<tr><th scope="row" data-label="Fact">${label}</th>.*?</tr>`).exec(page)?.[0];
      expect(row, label).toContain("(stale)");
    }
    const standing = (await mcpProfileText(target!.slug)).split("\n")[0]!;
    expect(standing).toMatch(/^standing: open; 2 stale facts \((openingHours, phone|phone, openingHours): check or say how old\); /);
  });
});
