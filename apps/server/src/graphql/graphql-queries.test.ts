import { gql, GraphQLClient } from "graphql-request";
import { describe, expect, it } from "vitest";
import type { TClaim, TEntityProfile, TGetAgentProfileOutput, TGetKnowledgeGraphOutput, TListing, TLookupBusinessesOutput } from "@directory/api/schemas";
import { getJson } from "../testing";
import { type GraphQLObjectType } from "./graphql-js";
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

/** The read models GraphQL serves, field for field the same as their REST twins. */

useGraphqlServer();

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

/** The claim fields SPEC_QUERY selects. */
type SpecClaim = Pick<TClaim, "property" | "value" | "source" | "confidence" | "verification" | "observedAt">;

/** The entity as SPEC_QUERY selects it. */
interface SpecEntity {
  name: string;
  category: string;
  claims: SpecClaim[];
  structuredData: Record<string, unknown>;
}

/** The entity as a history query selects it. */
interface HistoryEntity {
  history: boolean;
  claims: Pick<TClaim, "id" | "property" | "supersededAt" | "supersededBy">[];
}

const pickClaim = (claim: TClaim): SpecClaim => ({
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
    const data = await client.request<{ entity: SpecEntity }>(SPEC_QUERY, { slug });
    const rest = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`, freshAddress());
    expect(rest.status).toBe(200);
    expect(data.entity.name).toBe(rest.body.identity.name);
    expect(data.entity.category).toBe(rest.body.identity.category);
    expect(data.entity.claims.length).toBeGreaterThan(0);
    expect(data.entity.claims).toEqual(rest.body.claims.map(pickClaim));
    expect(data.entity.structuredData).toEqual(rest.body.structuredData);
    expect(data.entity.structuredData["@context"]).toBe("https://schema.org");
  });

  /**
   * GraphQL answers null for a field it selects that has no value, where REST leaves an optional
   * field out (operatingStatus.closedOn of an open business): such nulls are dropped before comparing.
   */
  function withoutAbsent(graphql: unknown, rest: unknown): unknown {
    if (Array.isArray(graphql) && Array.isArray(rest)) return graphql.map((item: unknown, index) => withoutAbsent(item, rest[index]));
    if (!graphql || typeof graphql !== "object" || !rest || typeof rest !== "object") return graphql;
    return Object.fromEntries(
      Object.entries(graphql)
        .filter(([key, value]: [string, unknown]) => value !== null || key in rest)
        .map(([key, value]: [string, unknown]) => [key, withoutAbsent(value, (rest as Record<string, unknown>)[key])]),
    );
  }

  it("serves the whole public profile under the REST field names", async () => {
    const slug = await activeBusinessWithHistory();
    const entityType = graphqlSchema.getType("Entity") as GraphQLObjectType;
    // Every public field: the identity's under their own names, the rest as the REST profile's.
    const { body } = await post<{ entity: { id: string; slug: string; name: string; category: string; city: string; [field: string]: unknown } }>(
      `query($slug: String!) { entity(slug: $slug) { ${fullSelection(entityType)} } }`,
      { slug },
      freshAddress(),
    );
    expect(body.errors).toBeUndefined();
    const rest = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`, freshAddress());
    const { id, slug: currentSlug, name, category, city, ...profile } = body.data!.entity;
    expect(withoutAbsent(profile, rest.body)).toEqual(rest.body);
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
    const anonymous = await post<{ entity: null }>(query, { slug }, freshAddress());
    expect(anonymous.body.data!.entity).toBeNull();
    expect(anonymous.body.errors![0]).toMatchObject({ path: ["entity"], extensions: { code: "UNAUTHORIZED", status: 401 } });
    expect(anonymous.body.errors![0].message).toMatch(/key/i);

    const keyed = await post<{ entity: HistoryEntity }>(query, { slug }, { authorization: `Bearer ${developerKey}` });
    expect(keyed.body.errors).toBeUndefined();
    expect(keyed.body.data!.entity.history).toBe(true);
    const rest = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}&history=true`, { authorization: `Bearer ${developerKey}` });
    expect(keyed.body.data!.entity.claims).toEqual(
      rest.body.claims.map((c) => ({ id: c.id, property: c.property, supersededAt: c.supersededAt, supersededBy: c.supersededBy })),
    );
    expect(keyed.body.data!.entity.claims.some((c) => c.supersededAt !== null)).toBe(true);

    const current = await post<{ entity: HistoryEntity }>(
      `query($slug: String!) { entity(slug: $slug, history: false) { history claims { supersededAt } } }`,
      { slug },
      freshAddress(),
    );
    expect(current.body.data!.entity.history).toBe(false);
    expect(current.body.data!.entity.claims.every((c) => c.supersededAt === null)).toBe(true);
  });

  it("answers GET for queries, as the GraphQL over HTTP spec allows", async () => {
    const slug = await activeBusinessWithHistory();
    const query = encodeURIComponent(`{ entity(slug: "${slug}") { slug name } }`);
    const { status, body } = await getJson<GraphqlResponse<{ entity: { slug: string; name: string } }>>(
      server.url,
      `/api/graphql?query=${query}`,
      freshAddress(),
    );
    expect(status).toBe(200);
    expect(body.data!.entity.slug).toBe(slug);
  });
});

/** What the read-models query below selects, as far as the test reads it. */
interface ReadModels {
  lookupBusinesses: { limit: number; businesses: Pick<TListing, "slug">[] };
  searchCategory: { businesses: unknown[] };
  searchKeyword: { total: number; businesses: unknown[] };
  offers: { total: number; business: { slug: string } };
  buyerQuestions: { total: number; questions: unknown[] };
  agentProfile: unknown;
}

describe("the other read models", () => {
  it("serves lookup, category and keyword search, offers, buyer questions and the agent profile as REST does", async () => {
    const slug = await activeBusinessWithOffers();
    const profile = await getJson<TEntityProfile>(server.url, `/api/v2/entity-profile?slug=${slug}`, freshAddress());
    const { category, city } = profile.body.identity;
    const headers = freshAddress();
    const { body } = await post<ReadModels>(
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
    const rest = await getJson<TLookupBusinessesOutput>(
      server.url,
      `/api/v2/businesses?category=${encodeURIComponent(category)}&city=${encodeURIComponent(city)}&limit=3`,
      freshAddress(),
    );
    expect(body.data!.lookupBusinesses.businesses.map((b) => b.slug)).toEqual(rest.body.businesses.map((b) => b.slug));
    expect(body.data!.lookupBusinesses.limit).toBe(3);
    expect(body.data!.searchCategory.businesses.length).toBeGreaterThan(0);
    expect(body.data!.searchKeyword.total).toBe(body.data!.searchKeyword.businesses.length);
    expect(body.data!.offers.total).toBeGreaterThan(0);
    expect(body.data!.offers.business.slug).toBe(slug);
    expect(body.data!.buyerQuestions.total).toBe(body.data!.buyerQuestions.questions.length);
    const agent = await getJson<TGetAgentProfileOutput>(server.url, `/business/${slug}/agent.json`, freshAddress());
    expect(body.data!.agentProfile).toEqual({
      schema: "ABO/1.0",
      entity: { name: agent.body.entity.name, trustScore: agent.body.entity.trustScore },
      actions: agent.body.actions.map((a) => ({ type: a.type, href: a.href })),
    });
  });

  it("resolves offers, buyer questions and the agent profile of an entity from inside it", async () => {
    const slug = await activeBusinessWithOffers();
    const { body } = await post<{ entity: { offers: { total: number }; agentProfile: { schema: string } } }>(
      `query($slug: String!) { entity(slug: $slug) { slug offers { total } buyerQuestions { total } agentProfile { schema } } }`,
      { slug },
      freshAddress(),
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.entity.offers.total).toBeGreaterThan(0);
    expect(body.data!.entity.agentProfile.schema).toBe("ABO/1.0");
  });
});

describe("knowledge graph", () => {
  it("serves an entity's co-mentioned neighbours as the REST network does, each call counted", async () => {
    const pairs = await getJson<Extract<TGetKnowledgeGraphOutput, { type: "top_pairs" }>>(server.url, "/api/v2/knowledge-graph?type=top_pairs", freshAddress());
    expect(pairs.status).toBe(200);
    const business = pairs.body.pairs[0]!.businesses[0]!;
    const headers = freshAddress();
    const { body, headers: responseHeaders } = await post<{ entity: { neighbours: unknown[] } }>(
      `query($slug: String!) { entity(slug: $slug) { id neighbours { business { id slug name categorySlug city } weight documents { id kind source engine fetchedAt excerpt } } } }`,
      { slug: business.slug },
      headers,
    );
    expect(body.errors).toBeUndefined();
    expect(responseHeaders.get("ratelimit")).toMatch(new RegExp(`r=${ANONYMOUS_PER_DAY - 2};`));
    const network = await getJson<Extract<TGetKnowledgeGraphOutput, { type: "network" }>>(
      server.url,
      `/api/v2/knowledge-graph?type=network&businessId=${business.id}`,
      freshAddress(),
    );
    expect(body.data!.entity.neighbours.length).toBeGreaterThan(0);
    expect(body.data!.entity.neighbours).toEqual(network.body.neighbours);
  });
});
