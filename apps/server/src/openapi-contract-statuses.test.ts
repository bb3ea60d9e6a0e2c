import { describe, expect, it } from "vitest";
import { type ErrorBody } from "./testing";
import {
  active,
  BAD_KEY,
  call,
  decommissioned,
  document,
  expectDocumented,
  freshAddress,
  freshKey,
  LONG,
  observed,
  operation,
  overLimit,
  requiredFields,
  server,
  UNKNOWN_UUID,
  useContractServer,
} from "./openapi-contract-fixtures";

/**
 * The OpenAPI document against the live server: every status a client can provoke on a REST
 * operation is documented on that operation, with a description of that situation, and every
 * documented status (503 aside: it needs the database gone) is one a client can get.
 */

useContractServer();

describe("searchBusinesses (GET /api/assistant-plugin, open)", () => {
  const path = () => `/api/assistant-plugin?${new URLSearchParams({ category: active.categoryName, city: active.cityName })}`;
  it("200, 400, 401", async () => {
    expectDocumented("searchBusinesses", await call(path()), 200, /./);
    expectDocumented("searchBusinesses", await call("/api/assistant-plugin?category=dentist"), 400, /missing/i);
    expectDocumented("searchBusinesses", await call(path(), { key: BAD_KEY }), 401, /malformed, unknown or revoked/);
  });
  it("429: the per-minute limit per address, and a key's monthly quota", async () => {
    const anonymous = await overLimit(path());
    expectDocumented("searchBusinesses", anonymous, 429, /Per-minute.*per address/);
    expect(anonymous.body).toMatchObject({ policy: "anonymous-minute", limit: 2, resetAt: expect.any(String) });
    const keyed = await overLimit(path(), await freshKey("developer"));
    expectDocumented("searchBusinesses", keyed, 429, /monthly quota/);
    expect(keyed.body.policy).toBe("key-monthly");
  });
});

describe("lookupBusinesses (GET /api/v2/businesses, anonymous daily)", () => {
  const path = () => `/api/v2/businesses?${new URLSearchParams({ category: active.categoryName, city: active.cityName })}`;
  it("200, 400, 401, 404", async () => {
    expectDocumented("lookupBusinesses", await call(path()), 200, /./);
    expectDocumented("lookupBusinesses", await call("/api/v2/businesses?category=dentist"), 400, /missing/);
    expectDocumented("lookupBusinesses", await call(path(), { key: BAD_KEY }), 401, /malformed, unknown or revoked/);
    expectDocumented(
      "lookupBusinesses",
      await call(`/api/v2/businesses?category=no-such-trade-zz&city=${encodeURIComponent(active.cityName)}`),
      404,
      /Unknown category or city/,
    );
  });
  it("429: the anonymous daily limit, with RateLimit headers", async () => {
    const refused = await overLimit(path());
    expectDocumented("lookupBusinesses", refused, 429, /per day per address.*supply an API key or wait/);
    expect(refused.body.policy).toBe("anonymous-daily");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("getEntityProfile (GET /api/v2/entity-profile, anonymous daily)", () => {
  const path = (slug = active.slug, extra = "") => `/api/v2/entity-profile?slug=${encodeURIComponent(slug)}${extra}`;
  it("200, 400, 401, 404, 410", async () => {
    expectDocumented("getEntityProfile", await call(path()), 200, /./);
    expectDocumented("getEntityProfile", await call(path(LONG)), 400, /Invalid parameter/);
    expectDocumented("getEntityProfile", await call(path(active.slug, "&history=maybe")), 400, /history/);
    expectDocumented("getEntityProfile", await call(path(), { key: BAD_KEY }), 401, /malformed, unknown or revoked/);
    expectDocumented("getEntityProfile", await call(path(active.slug, "&history=true")), 401, /history=true.*without an API key/);
    const missing = await call(path("no-such-business-zz"));
    expectDocumented("getEntityProfile", missing, 404, /Entity not found.*slug/);
    expect(operation("getEntityProfile").responses["404"]!.description).not.toMatch(/category|city/i);
    expectDocumented("getEntityProfile", await call(path(decommissioned.slug)), 410, /decommissioned/);
  });
  it("429: the anonymous daily limit; a key lifts it", async () => {
    expectDocumented("getEntityProfile", await overLimit(path()), 429, /Anonymous rate limit.*supply an API key or wait/);
    expectDocumented("getEntityProfile", await overLimit(path(), await freshKey("developer")), 429, /monthly quota of/);
  });
});

describe("getEntityById (GET /entity/{id}, anonymous daily)", () => {
  const path = (id = active.id, extra = "") => `/entity/${encodeURIComponent(id)}?format=json${extra}`;
  it("200, 400, 401, 404, 410", async () => {
    expectDocumented("getEntityById", await call(path()), 200, /./);
    expectDocumented("getEntityById", await call(`/entity/${active.id}?format=xml`), 400, /format/);
    expectDocumented("getEntityById", await call(path(), { key: BAD_KEY }), 401, /malformed, unknown or revoked/);
    expectDocumented("getEntityById", await call(path(active.id, "&history=true")), 401, /history=true/);
    expectDocumented("getEntityById", await call(path(UNKNOWN_UUID)), 404, /Entity not found.*id/);
    expect(operation("getEntityById").responses["404"]!.description).not.toMatch(/category|city/i);
    expectDocumented("getEntityById", await call(path(decommissioned.id)), 410, /decommissioned/);
  });
  it("429: the anonymous daily limit", async () => {
    const refused = await overLimit(path());
    expectDocumented("getEntityById", refused, 429, /per day per address/);
    expect(refused.body.policy).toBe("anonymous-daily");
  });
});

describe("getAgentProfile (GET /business/{slug}/agent.json, open)", () => {
  const path = (slug = active.slug) => `/business/${encodeURIComponent(slug)}/agent.json`;
  it("200, 400, 401, 404, 410", async () => {
    expectDocumented("getAgentProfile", await call(path()), 200, /./);
    expectDocumented("getAgentProfile", await call(path(LONG)), 400, /Invalid parameter/);
    expectDocumented("getAgentProfile", await call(path(), { key: BAD_KEY }), 401, /malformed, unknown or revoked/);
    expectDocumented("getAgentProfile", await call(path("no-such-business-zz")), 404, /Entity not found.*slug/);
    expect(operation("getAgentProfile").responses["404"]!.description).not.toMatch(/category|city/i);
    expectDocumented("getAgentProfile", await call(path(decommissioned.slug)), 410, /decommissioned/);
  });
  it("429: the per-minute limit per address", async () => {
    expectDocumented("getAgentProfile", await overLimit(path()), 429, /Per-minute/);
  });
});

describe("getPartnerFeed (GET /api/v2/partner-feed, partner key)", () => {
  const path = "/api/v2/partner-feed?limit=5";
  it("200 with RateLimit headers, 400", async () => {
    const page = await call(path, { key: await freshKey("partner") });
    expectDocumented("getPartnerFeed", page, 200, /./);
    expect(page.headers.get("ratelimit-policy")).toContain("key-monthly");
    expectDocumented("getPartnerFeed", await call("/api/v2/partner-feed?limit=501", { key: await freshKey("partner") }), 400, /limit outside 1 to 500/);
  });
  it("401 without a key or with a bad one, both carrying publicAlternative; 403 for another kind of key", async () => {
    for (const key of [undefined, BAD_KEY]) {
      const refused = await call<ErrorBody & { publicAlternative: string }>(path, { key });
      expectDocumented("getPartnerFeed", refused, 401, /API key missing, or malformed, unknown or revoked.*publicAlternative/);
      expect(refused.body.publicAlternative).toEqual(expect.any(String));
    }
    expect(requiredFields(operation("getPartnerFeed").responses["401"]!.content!["application/json"]!.schema)).toContain("publicAlternative");
    const wrongKind = await call(path, { key: await freshKey("developer") });
    expectDocumented("getPartnerFeed", wrongKind, 403, /not a partner key/);
    expect(operation("getPartnerFeed").responses["401"]!.description).not.toMatch(/history/);
  });
  it("429: the key's monthly quota, not an anonymous limit", async () => {
    const refused = await overLimit(path, await freshKey("partner"));
    expectDocumented("getPartnerFeed", refused, 429, /Monthly API quota exceeded/);
    expect(operation("getPartnerFeed").responses["429"]!.description).not.toMatch(/anonymous/i);
    expect(refused.body).toMatchObject({ policy: "key-monthly", limit: 2, resetAt: expect.any(String) });
  });
});

describe("getAgentDiscovery (GET /api/agent-discovery, open)", () => {
  it("200, 400, 401, 429", async () => {
    expectDocumented("getAgentDiscovery", await call("/api/agent-discovery"), 200, /./);
    expectDocumented("getAgentDiscovery", await call("/api/agent-discovery?note=%01"), 400, /Invalid parameter/);
    expectDocumented("getAgentDiscovery", await call("/api/agent-discovery", { key: BAD_KEY }), 401, /malformed, unknown or revoked/);
    expectDocumented("getAgentDiscovery", await overLimit("/api/agent-discovery"), 429, /Per-minute/);
    expect(Object.keys(operation("getAgentDiscovery").responses)).not.toContain("500");
  });
});

describe("getAgenticGateway (GET /api/agentic-gateway, open)", () => {
  it("200, 400, 401, 429", async () => {
    expectDocumented("getAgenticGateway", await call("/api/agentic-gateway?agent=test%2F1"), 200, /./);
    expectDocumented("getAgenticGateway", await call(`/api/agentic-gateway?agent=${LONG}`), 400, /Invalid parameter/);
    expectDocumented("getAgenticGateway", await call("/api/agentic-gateway", { key: BAD_KEY }), 401, /malformed, unknown or revoked/);
    expectDocumented("getAgenticGateway", await overLimit("/api/agentic-gateway"), 429, /Per-minute/);
  });
});

/** Every operation of the document, with its path parameters filled in. */
function everyOperation(): { operationId: string; method: string; path: string; keyed: boolean }[] {
  const operations = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const keyed = JSON.stringify(op.security) === JSON.stringify([{ bearerAuth: [] }]);
      operations.push({ operationId: op.operationId, method: method.toUpperCase(), path: template.replace(/\{[^}]+\}/g, "x"), keyed });
    }
  }
  return operations;
}

describe("every operation, including ones without probes of their own", () => {
  it("refuses a bad key with a documented 401, and a keyed one refuses a missing key too", async () => {
    for (const { operationId, method, path, keyed } of everyOperation()) {
      for (const key of keyed ? [BAD_KEY, undefined] : [BAD_KEY]) {
        const headers: Record<string, string> = { "x-forwarded-for": freshAddress(), "content-type": "application/json" };
        if (key) headers.authorization = `Bearer ${key}`;
        const response = await fetch(`${server.url}${path}`, { method, headers, body: method === "GET" ? undefined : "{}" });
        const refused = { status: response.status, headers: response.headers, body: (await response.json()) as ErrorBody };
        expectDocumented(operationId, refused, 401, key ? /malformed, unknown or revoked/ : /API key missing/);
      }
    }
  });
});

describe("getKnowledgeGraph (GET /api/v2/knowledge-graph, anonymous daily)", () => {
  const path = (query = "") => `/api/v2/knowledge-graph${query}`;
  it("200, 400, 401, 404, 410", async () => {
    expectDocumented("getKnowledgeGraph", await call(path()), 200, /./);
    expectDocumented("getKnowledgeGraph", await call(path(`?type=network&businessId=${active.id}`)), 200, /./);
    expectDocumented("getKnowledgeGraph", await call(path("?type=network")), 400, /missing \(network: businessId/);
    expectDocumented("getKnowledgeGraph", await call(path("?type=top_pairs&category=dentist")), 400, /the type does not use/);
    expectDocumented("getKnowledgeGraph", await call(path("?type=sideways")), 400, /Invalid parameter/);
    expectDocumented("getKnowledgeGraph", await call(path(), { key: BAD_KEY }), 401, /malformed, unknown or revoked/);
    expectDocumented("getKnowledgeGraph", await call(path(`?type=network&businessId=${UNKNOWN_UUID}`)), 404, /no business has this id or slug/);
    expectDocumented("getKnowledgeGraph", await call(path("?type=complementary&category=no-such-trade-zz")), 404, /category or city is unknown/);
    expectDocumented("getKnowledgeGraph", await call(path(`?type=network&businessId=${decommissioned.id}`)), 410, /decommissioned/);
  });
  it("429: the anonymous daily limit, and a key's monthly quota", async () => {
    expectDocumented("getKnowledgeGraph", await overLimit(path()), 429, /per day per address.*supply an API key or wait/);
    expectDocumented("getKnowledgeGraph", await overLimit(path(), await freshKey("developer")), 429, /monthly quota of/);
  });
});

/** The operations this file provokes every status of; 503 aside, each needs the database gone. */
const PROBED = [
  "searchBusinesses",
  "lookupBusinesses",
  "getEntityProfile",
  "getKnowledgeGraph",
  "getEntityById",
  "getAgentProfile",
  "getPartnerFeed",
  "getAgentDiscovery",
  "getAgenticGateway",
];

describe("the document as a whole", () => {
  it("documents nothing a client cannot get: every documented status but 503 and the transport ones was provoked above", () => {
    // 413, 415 and 431 (the request itself unfit) are provoked on every operation by fuzz.security.test.ts.
    const elsewhere = new Set([413, 415, 431, 503]);
    for (const operationId of PROBED) {
      const documented = Object.keys(operation(operationId).responses)
        .map(Number)
        .filter((status) => !elsewhere.has(status));
      expect([...(observed.get(operationId) ?? [])].sort(), operationId).toEqual(documented.sort());
    }
  });
});
