import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, categories, cities } from "@directory/db";
import type {
  TAvailableCitiesOutput,
  TCategoryLeadersOutput,
  TCitationsOutput,
  TCompareOutput,
  TGetAgentDiscoveryOutput,
  TGetAgenticGatewayOutput,
  TGetAgentProfileOutput,
  TGetBuyerQuestionsOutput,
  TGetListicleOutput,
  TGetOffersOutput,
  TLeadStatusOutput,
  TLeadView,
  TSearchCategoryOutput,
  TSearchKeywordOutput,
  TSubmitLeadOutput,
  TVisibilityOutput,
} from "@directory/api/schemas";
import { type ErrorBody, getJson, type OpenApiDocument, SMALL_TEST_WORLD, startTestServer, type TestServer, type TrpcError } from "./testing";

/**
 * Issue 22, item 6: every MCP tool and public procedure has a REST operation. Each is called here
 * on a real server; the lead and owner ones keep the guards of their procedure builders (consent,
 * idempotency, lead limits, key kind), since REST is only another door to the same procedure.
 */

const LEADS_PER_ADDRESS = 2;
let server: TestServer;
let active: { slug: string; category: string; city: string }[];

beforeAll(async () => {
  server = await startTestServer({ seed: SMALL_TEST_WORLD, rateLimits: { leadsPerAddressPerHour: LEADS_PER_ADDRESS } });
  active = await server.database.db
    .select({ slug: businesses.slug, category: categories.slug, city: cities.name })
    .from(businesses)
    .innerJoin(categories, eq(categories.slug, businesses.categorySlug))
    .innerJoin(cities, eq(cities.id, businesses.cityId))
    .where(and(eq(businesses.status, "active"), isNull(businesses.subscriptionExpiresAt)))
    .orderBy(asc(businesses.slug))
    .limit(2);
  expect(active).toHaveLength(2);
});
afterAll(async () => {
  await server?.close();
});

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** POST JSON; T is the body the test expects back. */
async function postJson<T = unknown>(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

const consent = { userAgreedToBeContacted: true, statementShownToUser: "May this business contact you about your request?" };
const lead = (slug: string, idempotencyKey: string, extra: Record<string, unknown> = {}) => ({
  slug,
  contactName: "Asha Rao",
  contactEmail: "asha.rao@example.com",
  message: "Could I book a visit next week?",
  idempotencyKey,
  consent,
  ...extra,
});

describe("REST parity: the reads an agent makes over MCP", () => {
  it("answers each search operation with 200 and the procedure's shape", async () => {
    const { category, city } = active[0]!;
    const categorySearch = await getJson<TSearchCategoryOutput>(server.url, `/api/v2/category-search?${query({ category, limit: "3" })}`);
    expect(categorySearch.status).toBe(200);
    expect(categorySearch.body.city).toBeNull();
    expect(categorySearch.body.businesses.length).toBeGreaterThan(0);
    expect(categorySearch.headers.get("ratelimit-policy")).toMatch(/anonymous-daily/);

    const leaders = await getJson<TCategoryLeadersOutput>(server.url, `/api/v2/category-leaders?${query({ category, limit: "2" })}`);
    expect(leaders.status).toBe(200);
    expect(leaders.body.businesses.length).toBeGreaterThan(0);
    expect(leaders.body.businesses.length).toBeLessThanOrEqual(2);

    const keyword = await getJson<TSearchKeywordOutput>(server.url, `/api/v2/keyword-search?${query({ query: category, city })}`);
    expect(keyword.status).toBe(200);
    expect(keyword.body.city!.name).toBe(city);
    expect(keyword.body.businesses.length).toBeGreaterThan(0);

    const listicle = await getJson<TGetListicleOutput>(server.url, `/api/v2/listicle?${query({ category, city })}`);
    expect(listicle.status).toBe(200);
    expect(listicle.body).toMatchObject({ paidPlacement: false, city: { name: city } });

    const cityList = await getJson<TAvailableCitiesOutput>(server.url, `/api/v2/cities?${query({ category })}`);
    expect(cityList.status).toBe(200);
    expect(cityList.body.cities.map((c) => c.name)).toContain(city);
  });

  it("answers each single-business operation with 200, and an unknown slug with 404", async () => {
    const [a, b] = active;
    const offers = await getJson<TGetOffersOutput>(server.url, `/api/v2/offers?${query({ slug: a!.slug })}`);
    expect(offers.status).toBe(200);
    expect(offers.body).toMatchObject({ business: { slug: a!.slug }, total: offers.body.offers.length });

    const questions = await getJson<TGetBuyerQuestionsOutput>(server.url, `/api/v2/buyer-questions?${query({ slug: a!.slug })}`);
    expect(questions.status).toBe(200);
    expect(questions.body.business.slug).toBe(a!.slug);
    expect(Array.isArray(questions.body.questions)).toBe(true);

    const compared = await getJson<TCompareOutput>(server.url, `/api/v2/compare?${query({ slugA: a!.slug, slugB: b!.slug })}`);
    expect(compared.status).toBe(200);
    expect(compared.body.businesses.map((x) => x.slug)).toEqual([a!.slug, b!.slug]);

    const unknown = await getJson(server.url, `/api/v2/offers?${query({ slug: "no-such-business-anywhere" })}`);
    expect(unknown.status).toBe(404);
  });
});

describe("REST parity: leads keep the procedure's guards", () => {
  it("refuses a lead without consent over REST as tRPC does, before counting it", async () => {
    const slug = active[0]!.slug;
    const { consent: _consent, ...withoutConsent } = lead(slug, "rest-parity-no-consent");
    const rest = await postJson<ErrorBody>("/api/v2/leads", withoutConsent);
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatch(/consent/);

    const trpc = await postJson<TrpcError>("/trpc/leads.submit", { json: withoutConsent });
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.json.data.public.code).toBe(rest.body.code);

    const notLiteralTrue = await postJson("/api/v2/leads", lead(slug, "rest-parity-false", { consent: { ...consent, userAgreedToBeContacted: false } }));
    expect(notLiteralTrue.status).toBe(400);
  });

  it("stores a consented lead once per idempotency key, reports its status, and applies the lead limit", async () => {
    const slug = active[0]!.slug;
    const first = await postJson<TSubmitLeadOutput>("/api/v2/leads", lead(slug, "rest-parity-lead-1"));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "new", businessSlug: slug });
    expect(first.headers.get("ratelimit-policy")).toMatch(/lead|anonymous-daily/);

    const replay = await postJson("/api/v2/leads", lead(slug, "rest-parity-lead-1"));
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ leadId: first.body.leadId, businessSlug: slug });

    const status = await getJson<TLeadStatusOutput>(server.url, `/api/v2/lead-status?${query({ leadId: first.body.leadId })}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ leadId: first.body.leadId, status: "new", business: { slug } });

    // The replay counted nothing: a second lead uses the address's hourly allowance of two, and a third is refused.
    expect((await postJson("/api/v2/leads", lead(slug, "rest-parity-lead-2"))).status).toBe(200);
    const third = await postJson<ErrorBody & { policy: string }>("/api/v2/leads", lead(slug, "rest-parity-lead-3"));
    expect(third.status).toBe(429);
    expect(third.body.policy).toBe("lead-address-hourly");

    const unknown = await getJson(server.url, `/api/v2/lead-status?${query({ leadId: "no-such-lead" })}`);
    expect(unknown.status).toBe(404);
  });
});

describe("REST parity: owner operations need the business's own key", () => {
  it("refuses the owner reads without a key (401) and with another kind of key (403), and answers the business key", async () => {
    const slug = active[1]!.slug;
    const { key: developer } = await createApiKey(server.database.db, { kind: "developer" });
    const { key: business } = await createApiKey(server.database.db, { kind: "business", businessSlug: slug });
    for (const path of ["/api/v2/owner/visibility", "/api/v2/owner/citations"]) {
      expect((await getJson(server.url, path)).status, path).toBe(401);
      expect((await getJson(server.url, path, { authorization: `Bearer ${developer}` })).status, path).toBe(403);
      const own = await getJson<TVisibilityOutput | TCitationsOutput>(server.url, path, { authorization: `Bearer ${business}` });
      expect(own.status, path).toBe(200);
      expect(own.body.business.slug, path).toBe(slug);
    }
    const visibility = await getJson<TVisibilityOutput>(server.url, "/api/v2/owner/visibility", { authorization: `Bearer ${business}` });
    expect(visibility.body).toMatchObject({ periodDays: expect.any(Number), scale: expect.any(Object) });
  });

  it("lets the business move its own lead on, and no one else", async () => {
    const slug = active[1]!.slug;
    // A key's lead limit is its own, apart from this address's used-up one.
    const { key: developer } = await createApiKey(server.database.db, { kind: "developer" });
    const submitted = await postJson<TSubmitLeadOutput>("/api/v2/leads", lead(slug, "rest-parity-owner-lead"), { authorization: `Bearer ${developer}` });
    expect(submitted.status).toBe(200);
    const move = { leadId: submitted.body.leadId, status: "contacted" };

    expect((await postJson("/api/v2/owner/leads/transition", move)).status).toBe(401);
    const { key: other } = await createApiKey(server.database.db, { kind: "business", businessSlug: active[0]!.slug });
    expect((await postJson("/api/v2/owner/leads/transition", move, { authorization: `Bearer ${other}` })).status).toBe(404);
    const { key: owner } = await createApiKey(server.database.db, { kind: "business", businessSlug: slug });
    const moved = await postJson<TLeadView>("/api/v2/owner/leads/transition", move, { authorization: `Bearer ${owner}` });
    expect(moved.status).toBe(200);
    expect(moved.body.status).toBe("contacted");
  });
});

describe("REST parity: agents are told the REST route of every operation", () => {
  it("lists a REST route for every MCP tool in the gateway and in the discovery manifest", async () => {
    const documented = new Set<string>();
    const openapi = await getJson<OpenApiDocument>(server.url, "/api/openapi.json");
    for (const [path, methods] of Object.entries(openapi.body.paths)) {
      for (const method of Object.keys(methods)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const [owned] = await server.database.db.select({ slug: businesses.slug }).from(businesses).limit(1);
    const { key: business } = await createApiKey(server.database.db, { kind: "business", businessSlug: owned!.slug });
    const tools = new Map<string, string>();
    for (const key of [business, server.adminKey]) {
      const { body } = await getJson<TGetAgenticGatewayOutput>(server.url, "/api/agentic-gateway", { authorization: `Bearer ${key}` });
      for (const op of body.mayCall) {
        expect(op.rest, op.operation).toEqual(expect.any(String));
        expect(documented, op.operation).toContain(op.rest.replace(/\?.*$/, ""));
        if (op.mcpTool) tools.set(op.mcpTool, op.rest);
      }
    }
    expect(tools.size).toBe(14);

    const discovery = await getJson<TGetAgentDiscoveryOutput>(server.url, "/api/agent-discovery");
    const listed = new Map(discovery.body.operations.filter((op) => op.mcpTool).map((op) => [op.mcpTool!, op.rest]));
    expect(listed).toEqual(tools);
    expect(listed.get("submit_lead")).toBe("POST /api/v2/leads");
    expect(discovery.body.operations.find((op) => op.operation === "getMyCitations")?.needs).toBe("business");
  });

  it("points agent.json's inquire action at the lead-submit operation, with its consent rule", async () => {
    const slug = active[0]!.slug;
    const { status, body } = await getJson<TGetAgentProfileOutput>(server.url, `/business/${slug}/agent.json`);
    expect(status).toBe(200);
    const inquire = body.actions.find((action) => action.type === "inquire")!;
    expect(inquire.href).toBe("http://directory.test/api/v2/leads");
    expect(inquire.description).toContain("POST /api/v2/leads (operation submitLead)");
    expect(inquire.description).toContain(slug);
    expect(inquire.description).toMatch(/explicit agreement.*never submit speculatively/);
  });
});
