import { describe, expect, it } from "vitest";
import { MAX_TRPC_BATCH_CALLS } from "../app";
import { getJson } from "../testing";
import { type GraphQLObjectType, parse } from "./graphql-js";
import { MAX_ALIASES, MAX_COST, MAX_DEPTH, MAX_PROCEDURE_CALLS, MAX_QUERY_BYTES, measureDocument } from "./limits";
import { graphqlSchema } from "./schema";
import {
  activeBusinessWithHistory,
  activeBusinessWithOffers,
  ANONYMOUS_PER_DAY,
  developerKey,
  freshAddress,
  fullSelection,
  type GraphqlResponse,
  post,
  server,
  useGraphqlServer,
} from "./graphql-fixtures";

/** What GraphQL refuses: operations other than queries, documents over the limits, and calls over the rate limits. */

useGraphqlServer();

describe("query-only", () => {
  it("refuses a mutation, pointing to the REST/tRPC operations", async () => {
    const { body } = await post(`mutation { submitLead(slug: "x") { id } }`, undefined, freshAddress());
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0].extensions).toEqual({ code: "OPERATION_NOT_SUPPORTED", status: 405 });
    expect(body.errors![0].message).toMatch(/query-only/);
    expect(body.errors![0].message).toMatch(/REST or tRPC/);
    expect(body.errors![0].message).toMatch(/openapi\.json/);
  });

  it("refuses a subscription, pointing to webhooks for real-time updates", async () => {
    const { body } = await post(`subscription { entityUpdated { slug } }`, undefined, freshAddress());
    expect(body.errors![0].extensions).toEqual({ code: "OPERATION_NOT_SUPPORTED", status: 405 });
    expect(body.errors![0].message).toMatch(/Subscriptions are not offered/);
    expect(body.errors![0].message).toMatch(/webhook/);
    expect(body.errors![0].message).toMatch(/entity\.updated/);
  });

  it("refuses a document that carries a mutation beside a query, and a mutation over GET", async () => {
    const mixed = await post(`query A { __typename } mutation B { x }`, undefined, freshAddress());
    expect(mixed.body.errors![0].extensions.code).toBe("OPERATION_NOT_SUPPORTED");
    const viaGet = await getJson<GraphqlResponse>(server.url, `/api/graphql?query=${encodeURIComponent("mutation { x }")}`);
    expect(viaGet.body.errors![0].extensions.code).toBe("OPERATION_NOT_SUPPORTED");
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
    expect(refused.body.errors![0].extensions).toEqual({ code, status });
    expect(refused.headers.get("ratelimit")).toBeNull();
    const after = await post(good, undefined, headers);
    expect(after.headers.get("ratelimit")).toMatch(new RegExp(`r=${ANONYMOUS_PER_DAY - 2};`));
    return refused.body.errors![0].message;
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
    const refused = await post<{ entity: null }>(`query($slug: String!) { entity(slug: $slug) { slug } }`, { slug }, headers);
    expect(refused.body.data!.entity).toBeNull();
    expect(refused.body.errors![0].extensions).toMatchObject({
      code: "RATE_LIMITED",
      status: 429,
      limit: ANONYMOUS_PER_DAY,
      policy: "anonymous-daily",
      resetAt: expect.any(String),
    });
    const keyed = await post<{ entity: { slug: string } }>(
      `query($slug: String!) { entity(slug: $slug) { slug } }`,
      { slug },
      { ...headers, authorization: `Bearer ${developerKey}` },
    );
    expect(keyed.body.data!.entity.slug).toBe(slug);
  });

  it("surfaces a refused key as an error on the field, as REST does", async () => {
    const { body } = await post(`{ entity(slug: "x") { slug } }`, undefined, { authorization: "Bearer bdk_dev_nonsense" });
    expect(body.errors![0].extensions).toMatchObject({ code: "INVALID_API_KEY", status: 401 });
  });
});
