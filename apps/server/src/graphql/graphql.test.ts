import { readFileSync } from "node:fs";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { buildClientSchema, getIntrospectionQuery, getNamedType, GraphQLObjectType, parse, printSchema, type IntrospectionQuery } from "./graphql-js";
import { ClientError, gql, GraphQLClient } from "graphql-request";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@directory/api";
import { businesses, claims, offers } from "@directory/db";
import { MAX_TRPC_BATCH_CALLS } from "../app";
import { getJson, startTestServer, type JsonBody, type TestServer } from "../testing";
import { MAX_ALIASES, MAX_COST, MAX_DEPTH, MAX_PROCEDURE_CALLS, MAX_QUERY_BYTES, measureDocument } from "./limits";
import { graphqlSchema, graphqlSdl } from "./schema";

const ANONYMOUS_PER_DAY = 20;

let server: TestServer;
let developerKey: string;
let addressCount = 0;

beforeAll(async () => {
  // One trusted proxy hop: each test reads from its own address, so anonymous budgets do not mix.
  server = await startTestServer({ seed: { businesses: 300 }, trustProxyHops: 1, rateLimits: { anonymousPerDay: ANONYMOUS_PER_DAY } });
  developerKey = (await createApiKey(server.database.db, { kind: "developer" })).key;
});
afterAll(async () => {
  await server?.close();
});

const db = () => server.database.db;
const activeCondition = and(eq(businesses.status, "active"), sql`(${businesses.subscriptionExpiresAt} is null or ${businesses.subscriptionExpiresAt} > now())`);

/** A fresh client address (X-Forwarded-For) with a full anonymous budget. */
function freshAddress(): Record<string, string> {
  addressCount += 1;
  return { "x-forwarded-for": `198.51.100.${addressCount}` };
}

async function activeBusinessWithHistory(): Promise<string> {
  const [row] = await db()
    .select({ slug: businesses.slug })
    .from(claims)
    .innerJoin(businesses, eq(businesses.id, claims.businessId))
    .where(and(isNotNull(claims.supersededAt), activeCondition))
    .limit(1);
  if (!row) throw new Error("the demo world has no active business with claim history");
  return row.slug;
}

async function activeBusinessWithOffers(): Promise<string> {
  const [row] = await db()
    .select({ slug: businesses.slug })
    .from(offers)
    .innerJoin(businesses, eq(businesses.id, offers.businessId))
    .where(activeCondition)
    .limit(1);
  if (!row) throw new Error("the demo world has no active business with offers");
  return row.slug;
}

/** POST a GraphQL request and keep status, headers and body. */
async function post(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as JsonBody };
}

const SPEC_QUERY = gql`
  query Entity($slug: String!) {
    entity(slug: $slug) {
      name
      category
      claims {
        property
        value
        source
        confidence
        verification
        observedAt
      }
      structuredData
    }
  }
`;

/** Every field of a type, nested, leaving out fields that call another procedure and those with arguments. */
function fullSelection(type: GraphQLObjectType): string {
  const fields = Object.values(type.getFields())
    .filter((field) => !(field.extensions.cost as { procedure?: boolean } | undefined)?.procedure && field.args.length === 0)
    .map((field) => {
      const named = getNamedType(field.type);
      return named instanceof GraphQLObjectType ? `${field.name} { ${fullSelection(named)} }` : field.name;
    });
  return fields.join(" ");
}

const pickClaim = (claim: JsonBody) => ({
  property: claim.property,
  value: claim.value,
  source: claim.source,
  confidence: claim.confidence,
  verification: claim.verification,
  observedAt: claim.observedAt,
});

describe("the entity query (spec 4.7)", () => {
  it("returns the same claims and JSON-LD as the REST entity profile, through a GraphQL client library", async () => {
    const slug = await activeBusinessWithHistory();
    const client = new GraphQLClient(`${server.url}/api/graphql`, { headers: freshAddress() });
    const data = await client.request<{ entity: JsonBody }>(SPEC_QUERY, { slug });
    const rest = await getJson(server.url, `/api/v2/entity-profile?slug=${slug}`, freshAddress());
    expect(rest.status).toBe(200);
    expect(data.entity.name).toBe(rest.body.identity.name);
    expect(data.entity.category).toBe(rest.body.identity.category);
    expect(data.entity.claims.length).toBeGreaterThan(0);
    expect(data.entity.claims).toEqual(rest.body.claims.map(pickClaim));
    expect(data.entity.structuredData).toEqual(rest.body.structuredData);
    expect(data.entity.structuredData["@context"]).toBe("https://schema.org");
  });

  it("serves the whole public profile under the REST field names", async () => {
    const slug = await activeBusinessWithHistory();
    const entityType = graphqlSchema.getType("Entity") as GraphQLObjectType;
    const { body } = await post(`query($slug: String!) { entity(slug: $slug) { ${fullSelection(entityType)} } }`, { slug }, freshAddress());
    expect(body.errors).toBeUndefined();
    const rest = await getJson(server.url, `/api/v2/entity-profile?slug=${slug}`, freshAddress());
    const { id, slug: currentSlug, name, category, city, ...profile } = body.data.entity;
    expect(profile).toEqual(rest.body);
    expect({ id, slug: currentSlug, name, category, city }).toEqual({
      id: rest.body.identity.id,
      slug: rest.body.identity.slug,
      name: rest.body.identity.name,
      category: rest.body.identity.category,
      city: rest.body.identity.city,
    });
  });

  it("keeps the key rule of history mode: anonymous history is UNAUTHORIZED, a key gets superseded claims", async () => {
    const slug = await activeBusinessWithHistory();
    const query = `query($slug: String!) { entity(slug: $slug, history: true) { history claims { id property supersededAt supersededBy } } }`;
    const anonymous = await post(query, { slug }, freshAddress());
    expect(anonymous.body.data.entity).toBeNull();
    expect(anonymous.body.errors[0]).toMatchObject({ path: ["entity"], extensions: { code: "UNAUTHORIZED", status: 401 } });
    expect(anonymous.body.errors[0].message).toMatch(/key/i);

    const keyed = await post(query, { slug }, { authorization: `Bearer ${developerKey}` });
    expect(keyed.body.errors).toBeUndefined();
    expect(keyed.body.data.entity.history).toBe(true);
    const rest = await getJson(server.url, `/api/v2/entity-profile?slug=${slug}&history=true`, { authorization: `Bearer ${developerKey}` });
    expect(keyed.body.data.entity.claims).toEqual(
      rest.body.claims.map((c: JsonBody) => ({ id: c.id, property: c.property, supersededAt: c.supersededAt, supersededBy: c.supersededBy })),
    );
    expect(keyed.body.data.entity.claims.some((c: JsonBody) => c.supersededAt !== null)).toBe(true);

    const current = await post(`query($slug: String!) { entity(slug: $slug, history: false) { history claims { supersededAt } } }`, { slug }, freshAddress());
    expect(current.body.data.entity.history).toBe(false);
    expect(current.body.data.entity.claims.every((c: JsonBody) => c.supersededAt === null)).toBe(true);
  });

  it("answers GET for queries, as the GraphQL over HTTP spec allows", async () => {
    const slug = await activeBusinessWithHistory();
    const query = encodeURIComponent(`{ entity(slug: "${slug}") { slug name } }`);
    const { status, body } = await getJson(server.url, `/api/graphql?query=${query}`, freshAddress());
    expect(status).toBe(200);
    expect(body.data.entity.slug).toBe(slug);
  });
});

describe("the other read models", () => {
  it("serves lookup, category and keyword search, offers, buyer questions and the agent profile as REST does", async () => {
    const slug = await activeBusinessWithOffers();
    const profile = await getJson(server.url, `/api/v2/entity-profile?slug=${slug}`, freshAddress());
    const { category, city } = profile.body.identity;
    const headers = freshAddress();
    const { body } = await post(
      `query($slug: String!, $category: String!, $city: String!) {
        lookupBusinesses(category: $category, city: $city, limit: 3) { category { slug name } city { name country } total limit businesses { slug name planTier directoryCompletenessScore recommended } }
        searchCategory(category: $category, city: $city) { total rankingModel city { name } businesses { slug } }
        searchKeyword(query: $category) { total businesses { slug matchedBy } }
        offers(slug: $slug) { business { slug } total offers { title price currency } }
        buyerQuestions(slug: $slug) { total questions { question source } }
        agentProfile(slug: $slug) { schema entity { name trustScore } actions { type href } }
      }`,
      { slug, category, city },
      headers,
    );
    expect(body.errors).toBeUndefined();
    const rest = await getJson(
      server.url,
      `/api/v2/businesses?category=${encodeURIComponent(category)}&city=${encodeURIComponent(city)}&limit=3`,
      freshAddress(),
    );
    expect(body.data.lookupBusinesses.businesses.map((b: JsonBody) => b.slug)).toEqual(rest.body.businesses.map((b: JsonBody) => b.slug));
    expect(body.data.lookupBusinesses.limit).toBe(3);
    expect(body.data.searchCategory.businesses.length).toBeGreaterThan(0);
    expect(body.data.searchKeyword.total).toBe(body.data.searchKeyword.businesses.length);
    expect(body.data.offers.total).toBeGreaterThan(0);
    expect(body.data.offers.business.slug).toBe(slug);
    expect(body.data.buyerQuestions.total).toBe(body.data.buyerQuestions.questions.length);
    const agent = await getJson(server.url, `/business/${slug}/agent.json`, freshAddress());
    expect(body.data.agentProfile).toEqual({
      schema: "ABO/1.0",
      entity: { name: agent.body.entity.name, trustScore: agent.body.entity.trustScore },
      actions: agent.body.actions.map((a: JsonBody) => ({ type: a.type, href: a.href })),
    });
  });

  it("resolves offers, buyer questions and the agent profile of an entity from inside it", async () => {
    const slug = await activeBusinessWithOffers();
    const { body } = await post(
      `query($slug: String!) { entity(slug: $slug) { slug offers { total } buyerQuestions { total } agentProfile { schema } } }`,
      { slug },
      freshAddress(),
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.entity.offers.total).toBeGreaterThan(0);
    expect(body.data.entity.agentProfile.schema).toBe("ABO/1.0");
  });
});

describe("knowledge graph", () => {
  it("serves an entity's co-mentioned neighbours as the REST network does, each call counted", async () => {
    const pairs = await getJson(server.url, "/api/v2/knowledge-graph?type=top_pairs", freshAddress());
    expect(pairs.status).toBe(200);
    const business = pairs.body.pairs[0].businesses[0];
    const headers = freshAddress();
    const { body, headers: responseHeaders } = await post(
      `query($slug: String!) { entity(slug: $slug) { id neighbours { business { id slug name categorySlug city } weight documents { id kind source engine fetchedAt excerpt } } } }`,
      { slug: business.slug },
      headers,
    );
    expect(body.errors).toBeUndefined();
    expect(responseHeaders.get("ratelimit")).toMatch(new RegExp(`r=${ANONYMOUS_PER_DAY - 2};`));
    const network = await getJson(server.url, `/api/v2/knowledge-graph?type=network&businessId=${business.id}`, freshAddress());
    expect(body.data.entity.neighbours.length).toBeGreaterThan(0);
    expect(body.data.entity.neighbours).toEqual(network.body.neighbours);
  });
});

describe("query-only", () => {
  it("refuses a mutation, pointing to the REST/tRPC operations", async () => {
    const { body } = await post(`mutation { submitLead(slug: "x") { id } }`, undefined, freshAddress());
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions).toEqual({ code: "OPERATION_NOT_SUPPORTED", status: 405 });
    expect(body.errors[0].message).toMatch(/query-only/);
    expect(body.errors[0].message).toMatch(/REST or tRPC/);
    expect(body.errors[0].message).toMatch(/openapi\.json/);
  });

  it("refuses a subscription, pointing to webhooks for real-time updates", async () => {
    const { body } = await post(`subscription { entityUpdated { slug } }`, undefined, freshAddress());
    expect(body.errors[0].extensions).toEqual({ code: "OPERATION_NOT_SUPPORTED", status: 405 });
    expect(body.errors[0].message).toMatch(/Subscriptions are not offered/);
    expect(body.errors[0].message).toMatch(/webhook/);
    expect(body.errors[0].message).toMatch(/entity\.updated/);
  });

  it("refuses a document that carries a mutation beside a query, and a mutation over GET", async () => {
    const mixed = await post(`query A { __typename } mutation B { x }`, undefined, freshAddress());
    expect(mixed.body.errors[0].extensions.code).toBe("OPERATION_NOT_SUPPORTED");
    const viaGet = await getJson(server.url, `/api/graphql?query=${encodeURIComponent("mutation { x }")}`);
    expect(viaGet.body.errors[0].extensions.code).toBe("OPERATION_NOT_SUPPORTED");
  });
});

describe("limits on the query document, before any procedure runs", () => {
  /** Sends a refused query between two good ones from one address: the anonymous counter must not move. */
  async function expectRefusedBeforeProcedures(query: string, code: string, status: number) {
    const headers = freshAddress();
    const slug = await activeBusinessWithHistory();
    const good = `{ entity(slug: "${slug}") { slug } }`;
    const before = await post(good, undefined, headers);
    expect(before.headers.get("ratelimit")).toMatch(new RegExp(`r=${ANONYMOUS_PER_DAY - 1};`));
    const refused = await post(query, undefined, headers);
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0].extensions).toEqual({ code, status });
    expect(refused.headers.get("ratelimit")).toBeNull();
    const after = await post(good, undefined, headers);
    expect(after.headers.get("ratelimit")).toMatch(new RegExp(`r=${ANONYMOUS_PER_DAY - 2};`));
    return refused.body.errors[0].message as string;
  }

  it(`refuses a query nested deeper than ${MAX_DEPTH} levels`, async () => {
    const message = await expectRefusedBeforeProcedures(
      `{ entity(slug: "x") { agentProfile { actions { href { a { b { c { d } } } } } } } }`,
      "QUERY_TOO_DEEP",
      400,
    );
    expect(message).toContain(String(MAX_DEPTH));
  });

  it("counts depth through fragments and inline fragments too", async () => {
    await expectRefusedBeforeProcedures(
      `query { ...Q } fragment Q on Query { entity(slug: "x") { ... on Entity { agentProfile { ...A } } } } fragment A on AgentProfile { actions { href { a { b { c } } } } }`,
      "QUERY_TOO_DEEP",
      400,
    );
  });

  it(`refuses a query over ${MAX_COST} cost points`, async () => {
    const listing = fullSelection(graphqlSchema.getType("Listing") as GraphQLObjectType);
    const lookup = (alias: string) => `${alias}: lookupBusinesses(category: "dentist", city: "Mumbai", limit: 50) { businesses { ${listing} } }`;
    const message = await expectRefusedBeforeProcedures(`{ ${["a", "b", "c", "d", "e"].map(lookup).join(" ")} }`, "QUERY_TOO_COSTLY", 400);
    expect(message).toMatch(/points/);
  });

  it(`refuses a query that would make more than ${MAX_PROCEDURE_CALLS} procedure calls`, async () => {
    const fields = Array.from({ length: 4 }, (_, i) => `e${i}: entity(slug: "x") { offers { total } buyerQuestions { total } }`).join(" ");
    const message = await expectRefusedBeforeProcedures(`{ ${fields} }`, "QUERY_TOO_COSTLY", 400);
    expect(message).toMatch(/12 procedure calls/);
  });

  it(`refuses more than ${MAX_ALIASES} aliases`, async () => {
    const aliases = Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `n${i}: name`).join(" ");
    await expectRefusedBeforeProcedures(`{ entity(slug: "x") { ${aliases} } }`, "TOO_MANY_ALIASES", 400);
  });

  it(`refuses a query over ${MAX_QUERY_BYTES} bytes or with too many tokens`, async () => {
    await expectRefusedBeforeProcedures(`{ entity(slug: "x") { name } } # ${"x".repeat(MAX_QUERY_BYTES)}`, "QUERY_TOO_LARGE", 413);
    await expectRefusedBeforeProcedures(`{ entity(slug: "x") { ${"a ".repeat(2_100)} } }`, "QUERY_TOO_LARGE", 413);
  });

  it("refuses invalid and unparsable documents with codes, before any procedure runs", async () => {
    expect(await expectRefusedBeforeProcedures(`{ entity(slug: "x") { noSuchField } }`, "GRAPHQL_VALIDATION_FAILED", 400)).toMatch(/noSuchField/);
    await expectRefusedBeforeProcedures(`{ entity(slug: `, "GRAPHQL_PARSE_FAILED", 400);
  });

  it("lets the full entity query with its extras and a full 50-result lookup through", () => {
    const entity = fullSelection(graphqlSchema.getType("Entity") as GraphQLObjectType);
    const agent = fullSelection(graphqlSchema.getType("AgentProfile") as GraphQLObjectType);
    const full = parse(
      `{ entity(slug: "x") { ${entity} offers { total offers { title price } } buyerQuestions { questions { question answer } } agentProfile { ${agent} } } }`,
    );
    const measured = measureDocument(graphqlSchema, full);
    expect(measured.procedureCalls).toBe(4);
    expect(measured.cost).toBeLessThan(MAX_COST / 2);
    const listing = fullSelection(graphqlSchema.getType("Listing") as GraphQLObjectType);
    expect(measureDocument(graphqlSchema, parse(`{ lookupBusinesses(category: "a", city: "b", limit: 50) { businesses { ${listing} } } }`)).cost).toBeLessThan(
      MAX_COST / 2,
    );
  });

  it("allows as many procedure calls per query as one tRPC batch", () => {
    expect(MAX_PROCEDURE_CALLS).toBe(MAX_TRPC_BATCH_CALLS);
  });
});

describe("rate limits", () => {
  it("counts each resolved procedure against the anonymous limit, shared with REST, and refuses with 429 details", async () => {
    const slug = await activeBusinessWithOffers();
    const headers = freshAddress();
    const first = await post(`query($slug: String!) { entity(slug: $slug) { slug offers { total } } }`, { slug }, headers);
    expect(first.body.errors).toBeUndefined();
    expect(first.headers.get("ratelimit")).toMatch(new RegExp(`^"anonymous-daily";r=${ANONYMOUS_PER_DAY - 2};`));
    const rest = await getJson(server.url, `/api/v2/entity-profile?slug=${slug}`, headers);
    expect(rest.headers.get("ratelimit")).toMatch(new RegExp(`r=${ANONYMOUS_PER_DAY - 3};`));
    const aliases = Array.from({ length: ANONYMOUS_PER_DAY - 3 }, (_, i) => `e${i}: entity(slug: $slug) { slug }`);
    for (let i = 0; i < aliases.length; i += 8) {
      const spent = await post(`query($slug: String!) { ${aliases.slice(i, i + 8).join(" ")} }`, { slug }, headers);
      expect(spent.body.errors).toBeUndefined();
    }
    const refused = await post(`query($slug: String!) { entity(slug: $slug) { slug } }`, { slug }, headers);
    expect(refused.body.data.entity).toBeNull();
    expect(refused.body.errors[0].extensions).toMatchObject({
      code: "RATE_LIMITED",
      status: 429,
      limit: ANONYMOUS_PER_DAY,
      policy: "anonymous-daily",
      resetAt: expect.any(String),
    });
    const keyed = await post(`query($slug: String!) { entity(slug: $slug) { slug } }`, { slug }, { ...headers, authorization: `Bearer ${developerKey}` });
    expect(keyed.body.data.entity.slug).toBe(slug);
  });

  it("surfaces a refused key as an error on the field, as REST does", async () => {
    const { body } = await post(`{ entity(slug: "x") { slug } }`, undefined, { authorization: "Bearer bdk_dev_nonsense" });
    expect(body.errors[0].extensions).toMatchObject({ code: "INVALID_API_KEY", status: 401 });
  });
});

describe("schema, introspection and discovery", () => {
  it("keeps the committed schema.graphql in step with the code (pnpm --filter @directory/server graphql:schema)", async () => {
    const committed = readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
    expect(committed).toBe(graphqlSdl());
    const served = await fetch(`${server.url}/api/graphql/schema.graphql`);
    expect(await served.text()).toBe(committed);
  });

  it("answers introspection (the standard query a client sends), and it prints the committed schema", async () => {
    const { body } = await post(getIntrospectionQuery(), undefined, freshAddress());
    expect(body.errors).toBeUndefined();
    expect(`${printSchema(buildClientSchema(body.data as IntrospectionQuery))}\n`).toBe(graphqlSdl());
  });

  it("has no mutation and no subscription type, and no internal score anywhere", () => {
    expect(graphqlSchema.getMutationType()).toBeUndefined();
    expect(graphqlSchema.getSubscriptionType()).toBeUndefined();
    expect(graphqlSdl()).not.toMatch(/geoScore|visibilityScore/);
  });

  it("is named in the discovery manifest", async () => {
    const { body } = await getJson(server.url, "/api/agent-discovery");
    expect(body.doors.graphql).toMatchObject({
      url: "http://directory.test/api/graphql",
      schema: "http://directory.test/api/graphql/schema.graphql",
      operations: "query",
    });
  });

  it("lets browsers on any origin query it (preflight for POST with Authorization)", async () => {
    const response = await fetch(`${server.url}/api/graphql`, {
      method: "OPTIONS",
      headers: { origin: "https://agent.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });

  it("answers a malformed body with a GraphQL error shape", async () => {
    const response = await fetch(`${server.url}/api/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: [{ message: "Request body is not valid JSON", extensions: { code: "INVALID_INPUT", status: 400 } }] });
    const noQuery = await post(undefined as unknown as string);
    expect(noQuery.body.errors[0].extensions).toEqual({ code: "INVALID_INPUT", status: 400 });
    const missingVariable = await post(`query($slug: String!) { entity(slug: $slug) { slug } }`, {}, freshAddress());
    expect(missingVariable.body.errors[0].extensions).toEqual({ code: "INVALID_INPUT", status: 400 });
    expect(missingVariable.body.errors[0].message).toMatch(/\$slug/);
  });

  it("is reported by graphql-request as a ClientError carrying the codes", async () => {
    const client = new GraphQLClient(`${server.url}/api/graphql`, { headers: freshAddress() });
    const error = await client
      .request(gql`
        {
          entity(slug: "no-such-business-anywhere") {
            slug
          }
        }
      `)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
});
