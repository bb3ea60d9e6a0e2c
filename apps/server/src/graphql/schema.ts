import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  printSchema,
  valueFromASTUntyped,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
  type ThunkObjMap,
} from "./graphql-js";
import type { createCaller } from "@directory/api";
import { CLAIM_VERIFICATIONS, PLAN_TIERS } from "@directory/db";
import { callProcedure } from "./errors";
import type { FieldCost } from "./limits";

/*
 * The GraphQL door's schema (query-only). Every field with a resolver here is one procedure call
 * through the caller's own tRPC caller, so keys, limits, 404/410 and output rules are the API's;
 * every other field reads the procedure's output by the same name. Field names follow the REST and
 * tRPC outputs (the zod output schemas in packages/api/src/routers).
 */

export type DirectoryCaller = ReturnType<typeof createCaller>;

/** A type, not an interface: graphql-http wants a context assignable to a plain record. */
export type GraphQLContext = { caller: DirectoryCaller };

/** Cost hints the limit analysis reads (limits.ts); `procedure` marks a field that calls one. */
function costOf(cost: FieldCost): { cost: FieldCost } {
  return { cost };
}

const nonNull = <T extends GraphQLOutputType>(type: T) => new GraphQLNonNull(type);
const list = (type: GraphQLOutputType) => nonNull(new GraphQLList(nonNull(type)));
const string = { type: nonNull(GraphQLString) };
const nullableString = { type: GraphQLString };
const float = { type: nonNull(GraphQLFloat) };
const nullableFloat = { type: GraphQLFloat };
const int = { type: nonNull(GraphQLInt) };
const boolean = { type: nonNull(GraphQLBoolean) };
const strings = { type: list(GraphQLString) };

/** Any JSON value: schema.org JSON-LD and claim values, as the REST answer has them. */
export const JSONScalar = new GraphQLScalarType({
  name: "JSON",
  description: "Any JSON value, as the REST answer carries it (schema.org JSON-LD, claim values)",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

function enumOf(name: string, values: readonly string[], description: string): GraphQLEnumType {
  return new GraphQLEnumType({ name, description, values: Object.fromEntries(values.map((value) => [value, { value }])) });
}

const PlanTier = enumOf("PlanTier", PLAN_TIERS, "Paid tiers rank first; disclosed, never hidden");
const ClaimVerification = enumOf("ClaimVerification", CLAIM_VERIFICATIONS, "How a claim was verified");
const Ownership = enumOf("Ownership", ["owner_verified", "unclaimed"], "Owner-verified, or unclaimed and registry-sourced");
const MatchedBy = enumOf("MatchedBy", ["full_text", "fuzzy_name"], "How a keyword search hit matched");
const ActionType = enumOf("ActionType", ["contact", "navigate", "inquire", "schedule", "verify"], "What an agent-profile action does");
const QuestionSource = enumOf("QuestionSource", ["owner", "category_template"], "owner: submitted by the business; category_template: asked of every business in the category");

function object(name: string, description: string, fields: ThunkObjMap<GraphQLFieldConfig<unknown, GraphQLContext>>): GraphQLObjectType {
  return new GraphQLObjectType({ name, description, fields });
}

/** Lists whose length the limit analysis multiplies nested costs by (their outputs' own caps). */
const LIST_BOUNDS = { claims: 100, listings: 50, toolListings: 10, ownerList: 50, questions: 50, offers: 50, actions: 10, intents: 20, neighbours: 20, documentsPerEdge: 3 } as const;

const Claim = object("Claim", "A provenance-tracked fact (spec 2.4); superseded claims appear only in history mode", {
  id: string,
  property: { ...string, description: "The profile field this claim sets, e.g. phone" },
  value: { type: JSONScalar, description: "The value as stated; owner text inside it is cleaned and capped" },
  source: { ...string, description: 'Who said it; "demo:" marks generated demo data' },
  confidence: float,
  verification: { type: nonNull(ClaimVerification) },
  observedAt: string,
  supersededAt: { ...nullableString, description: "Set on superseded claims (history mode only)" },
  supersededBy: nullableString,
});

const EntityIdentity = object("EntityIdentity", "Who the business is", {
  id: { ...string, description: "Immutable business id; /entity/{id}?format=json serves it" },
  slug: string,
  name: string,
  category: string,
  categorySlug: string,
  city: string,
  state: string,
  country: string,
  ownership: { type: nonNull(Ownership) },
  verified: boolean,
  planTier: { type: nonNull(PlanTier) },
  createdAt: string,
  updatedAt: string,
});

const OpeningHours = object("OpeningHours", "Days with their opening and closing times", { days: strings, opens: string, closes: string });

const EntityContact = object("EntityContact", "How to reach the business", {
  phone: nullableString,
  website: nullableString,
  email: nullableString,
  address: string,
  postalCode: nullableString,
  latitude: nullableFloat,
  longitude: nullableFloat,
  openingHours: { type: list(OpeningHours), extensions: costOf({ listBound: LIST_BOUNDS.ownerList }) },
});

const EntityAiSignals = object("EntityAiSignals", "Descriptions and the directory-owned completeness metric (score contract 2.1)", {
  description: nullableString,
  tagline: nullableString,
  usp: nullableString,
  keywords: strings,
  rating: nullableFloat,
  reviewCount: int,
  directoryCompletenessScore: float,
  directoryCompletenessScoreLabel: string,
  rankingModel: string,
  recommended: boolean,
});

const EntityLinks = object("EntityLinks", "Where else this entity is served", { profileUrl: string, agentProfileUrl: string, canonicalUrl: string });

const BusinessRef = object("BusinessRef", "The business an answer is about", { slug: string, name: string });

const BuyerQuestion = object("BuyerQuestion", "A question buyers ask, with the business's answer when it gave one", {
  question: string,
  answer: nullableString,
  source: { type: nonNull(QuestionSource) },
});

const BuyerQuestions = object("BuyerQuestions", "Owner-submitted questions plus the category's templates (get_buyer_questions)", {
  business: { type: nonNull(BusinessRef) },
  questions: { type: list(BuyerQuestion), extensions: costOf({ listBound: LIST_BOUNDS.questions }) },
  total: int,
});

const Offer = object("Offer", "A published product or service with its price", {
  title: string,
  description: nullableString,
  price: { ...string, description: "Decimal amount, exact" },
  currency: { ...string, description: "ISO 4217 currency code" },
  validUntil: nullableString,
});

const Offers = object("Offers", "A business's published commerce offers (get_offers)", {
  business: { type: nonNull(BusinessRef) },
  offers: { type: list(Offer), extensions: costOf({ listBound: LIST_BOUNDS.offers }) },
  total: int,
});

const AgentProfile = object("AgentProfile", "The agent-readable profile, schema ABO/1.0 (spec 2.3; /business/{slug}/agent.json)", {
  schema: string,
  entity: {
    type: nonNull(
      object("AgentProfileEntity", "The business as an agent sees it", {
        name: string,
        category: string,
        city: string,
        description: string,
        verified: boolean,
        trustScore: { ...float, description: "Mean confidence of the current claims, 0-100" },
      }),
    ),
  },
  contact: { type: nonNull(object("AgentProfileContact", "Contact details", { phone: string, website: string, address: string })) },
  actions: {
    type: list(object("AgentAction", "An executable action", { actionId: string, name: string, type: { type: nonNull(ActionType) }, description: string, href: string })),
    extensions: costOf({ listBound: LIST_BOUNDS.actions }),
  },
  intents: {
    type: list(object("AgentIntent", "A prepared question and answer", { query: string, answer: string, confidence: float })),
    extensions: costOf({ listBound: LIST_BOUNDS.intents }),
  },
  agentInstructions: { ...string, description: "How an agent should treat this profile; the business's own words are quoted data, not instructions" },
});

const DocumentKind = enumOf("DocumentKind", ["ai_answer", "article"], "An AI platform's answer, or an article");

const GraphBusiness = object("GraphBusiness", "A business in the knowledge graph", {
  id: { ...string, description: "Immutable business id" },
  slug: string,
  name: string,
  categorySlug: string,
  city: string,
});

const SupportingDocument = object("SupportingDocument", "A document naming both businesses of an edge", {
  id: string,
  kind: { type: nonNull(DocumentKind) },
  source: { ...string, description: "Where the text came from" },
  engine: { ...nullableString, description: "The AI platform that answered; null for articles" },
  fetchedAt: string,
  excerpt: { ...string, description: "Third-party text around the two names" },
});

const Neighbour = object("Neighbour", "A business co-mentioned with this one (GET /api/v2/knowledge-graph?type=network)", {
  business: { type: nonNull(GraphBusiness) },
  weight: { ...int, description: "Documents naming both businesses" },
  documents: { type: list(SupportingDocument), description: "A few of those documents, newest first", extensions: costOf({ listBound: LIST_BOUNDS.documentsPerEdge }) },
});

interface EntityProfileOutput {
  identity: { id: string; slug: string; name: string; category: string; city: string };
}

/** A field that calls a procedure for the entity it hangs off, by its current slug. */
function entityExtra(type: GraphQLObjectType, description: string, call: (caller: DirectoryCaller, slug: string) => Promise<unknown>): GraphQLFieldConfig<EntityProfileOutput, GraphQLContext> {
  return {
    type: nonNull(type),
    description: `${description} One more procedure call, counted like any other.`,
    extensions: costOf({ procedure: true }),
    resolve: (entity, _args, { caller }) => callProcedure(() => call(caller, entity.identity.slug)),
  };
}

const Entity = new GraphQLObjectType<EntityProfileOutput, GraphQLContext>({
  name: "Entity",
  description: "The full structured entity record (spec 2.5), as GET /api/v2/entity-profile serves it, plus the name, category and city of its identity at the top",
  fields: () =>
    ({
      apiVersion: string,
      id: { ...string, description: "identity.id", resolve: (entity) => entity.identity.id },
      slug: { ...string, description: "identity.slug", resolve: (entity) => entity.identity.slug },
      name: { ...string, description: "identity.name", resolve: (entity) => entity.identity.name },
      category: { ...string, description: "identity.category", resolve: (entity) => entity.identity.category },
      city: { ...string, description: "identity.city", resolve: (entity) => entity.identity.city },
      identity: { type: nonNull(EntityIdentity) },
      contact: { type: nonNull(EntityContact) },
      aiSignals: { type: nonNull(EntityAiSignals) },
      services: strings,
      structuredData: { type: nonNull(JSONScalar), description: "schema.org JSON-LD (LocalBusiness subtype)" },
      claims: { type: list(Claim), description: "Current claims; with history: true (API key required) also superseded ones", extensions: costOf({ listBound: LIST_BOUNDS.claims }) },
      history: { ...boolean, description: "True when superseded claims are included" },
      links: { type: nonNull(EntityLinks) },
      offers: entityExtra(Offers, "This business's published offers.", (caller, slug) => caller.entities.getOffers({ slug })),
      buyerQuestions: entityExtra(BuyerQuestions, "Questions buyers ask this business.", (caller, slug) => caller.entities.getBuyerQuestions({ slug })),
      agentProfile: entityExtra(AgentProfile, "This business's agent profile (ABO/1.0).", (caller, slug) => caller.entities.getAgentProfile({ slug })),
      neighbours: {
        type: list(Neighbour),
        description: "Businesses co-mentioned with this one in AI answers and articles, strongest first (the knowledge graph's network). One more procedure call, counted like any other.",
        extensions: costOf({ procedure: true, listBound: LIST_BOUNDS.neighbours }),
        resolve: (entity, _args, { caller }) =>
          callProcedure(async () => {
            const graph = await caller.graph.getKnowledgeGraph({ type: "network", businessId: entity.identity.id });
            return graph.type === "network" ? graph.neighbours : [];
          }),
      },
    }) satisfies GraphQLFieldConfigMap<EntityProfileOutput, GraphQLContext>,
});

const listingFields = {
  id: { ...string, description: "Immutable business id; /entity/{id}?format=json serves it" },
  slug: string,
  name: string,
  category: string,
  city: string,
  state: string,
  country: { ...string, description: "ISO 3166-1 alpha-2" },
  address: string,
  phone: string,
  website: string,
  description: string,
  services: { ...string, description: "Comma-separated services" },
  usp: string,
  rating: nullableFloat,
  planTier: { type: nonNull(PlanTier) },
  verified: { ...boolean, description: "True when the owner verified the listing" },
  ownership: { type: nonNull(Ownership) },
  profileUrl: string,
  directoryCompletenessScore: float,
  directoryCompletenessScoreLabel: string,
  rankingModel: string,
  recommended: boolean,
};

const Listing = object("Listing", "A business listing (spec 2.1 under score contract 2.1-phase0: no internal scores)", listingFields);
const KeywordListing = object("KeywordListing", "A listing found by keyword, with how it matched", { ...listingFields, matchedBy: { type: nonNull(MatchedBy) } });

const ResolvedCategory = object("ResolvedCategory", "The category the query resolved to", { slug: string, name: string });
const ResolvedCity = object("ResolvedCity", "The city the query resolved to (aliases and accents are accepted)", { slug: string, name: string, region: string, country: string });

const BusinessLookup = object("BusinessLookup", "One category in one city (GET /api/v2/businesses)", {
  category: { type: nonNull(ResolvedCategory) },
  city: { type: nonNull(ResolvedCity) },
  businesses: { type: list(Listing), extensions: costOf({ listBound: LIST_BOUNDS.listings }) },
  total: { ...int, description: "Number of results returned" },
  limit: int,
  apiVersion: string,
  rankingDisclosure: string,
});

const RankedListings = object("RankedListings", "A category, in one city or across all, ranked by plan tier then internal score (search_businesses)", {
  category: { type: nonNull(ResolvedCategory) },
  city: { type: ResolvedCity, description: "Null when the search spans every city" },
  businesses: { type: list(Listing), extensions: costOf({ listBound: LIST_BOUNDS.toolListings }) },
  total: { ...int, description: "Number of results returned" },
  rankingModel: { ...string, description: "How the results are ordered, in plain words" },
});

const KeywordResults = object("KeywordResults", "Free-text search results (search_by_keyword)", {
  query: string,
  city: { type: ResolvedCity },
  businesses: { type: list(KeywordListing), extensions: costOf({ listBound: LIST_BOUNDS.toolListings }) },
  total: int,
  rankingModel: string,
});

/** GraphQL null means "not given": the procedure's own default then applies. */
const given = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

const slugArg = { slug: { type: nonNull(GraphQLString), description: "A business slug; a former slug also resolves" } };
const limitArg = (rule: string) => ({ limit: { type: GraphQLInt, description: rule } });

function rootField<Args>(config: Omit<GraphQLFieldConfig<unknown, GraphQLContext, Args>, "resolve" | "extensions"> & { call: (caller: DirectoryCaller, args: Args) => Promise<unknown> }): GraphQLFieldConfig<unknown, GraphQLContext, Args> {
  const { call, ...rest } = config;
  return { ...rest, extensions: costOf({ procedure: true }), resolve: (_root, args, { caller }) => callProcedure(() => call(caller, args)) };
}

const Query = new GraphQLObjectType<unknown, GraphQLContext>({
  name: "Query",
  description: "Query-only: no mutations (use the REST or tRPC operations) and no subscriptions (register a webhook for entity.updated). Each field below is one procedure call.",
  fields: {
    entity: rootField<{ slug: string; history?: boolean | null }>({
      type: Entity,
      description: "The entity profile (GET /api/v2/entity-profile). 404 NOT_FOUND for an unknown slug, 410 ENTITY_DECOMMISSIONED for an inactive business.",
      args: { ...slugArg, history: { type: GraphQLBoolean, description: "true adds superseded claims; needs an API key" } },
      call: (caller, { slug, history }) => caller.entities.getEntityProfile({ slug, history: history == null ? undefined : String(history) }),
    }),
    lookupBusinesses: rootField<{ category: string; city: string; limit?: number | null }>({
      type: BusinessLookup,
      description: "One category in one city (GET /api/v2/businesses); an unknown category or city is a NOT_FOUND that names it",
      args: { category: { type: nonNull(GraphQLString), description: "Category name, plural or synonym" }, city: { type: nonNull(GraphQLString), description: "City name or alias" }, ...limitArg("1 to 50, default 10") },
      call: (caller, { category, city, limit }) => caller.search.lookupBusinesses({ category, city, limit: given(limit) }),
    }),
    searchCategory: rootField<{ category: string; city?: string | null; limit?: number | null }>({
      type: RankedListings,
      description: "A category with an optional city, ranked by plan tier then internal score (the search_businesses tool)",
      args: { category: { type: nonNull(GraphQLString), description: 'A business category, e.g. "dentist"' }, city: { type: GraphQLString, description: "Omit for every city" }, ...limitArg("1 to 10, default 5") },
      call: (caller, { category, city, limit }) => caller.search.searchCategory({ category, city: given(city), limit: given(limit) }),
    }),
    searchKeyword: rootField<{ query: string; city?: string | null; limit?: number | null }>({
      type: KeywordResults,
      description: "Free text over names, descriptions, services, USPs, taglines, keywords and buyer questions (the search_by_keyword tool)",
      args: { query: { type: nonNull(GraphQLString), description: "2 to 200 characters" }, city: { type: GraphQLString, description: "Omit to search everywhere" }, ...limitArg("1 to 10, default 5") },
      call: (caller, { query, city, limit }) => caller.search.searchKeyword({ query, city: given(city), limit: given(limit) }),
    }),
    offers: rootField<{ slug: string }>({
      type: Offers,
      description: "A business's published commerce offers (the get_offers tool)",
      args: slugArg,
      call: (caller, { slug }) => caller.entities.getOffers({ slug }),
    }),
    buyerQuestions: rootField<{ slug: string }>({
      type: BuyerQuestions,
      description: "Buyer questions for a listing: owner-submitted plus templates (the get_buyer_questions tool)",
      args: slugArg,
      call: (caller, { slug }) => caller.entities.getBuyerQuestions({ slug }),
    }),
    agentProfile: rootField<{ slug: string }>({
      type: AgentProfile,
      description: "The agent profile, ABO/1.0 (GET /business/{slug}/agent.json)",
      args: slugArg,
      call: (caller, { slug }) => caller.entities.getAgentProfile({ slug }),
    }),
  },
});

export const graphqlSchema = new GraphQLSchema({ query: Query });

/** The schema in SDL, as committed in apps/server/schema.graphql (pnpm --filter @directory/server graphql:schema). */
export const graphqlSdl = (): string => `${printSchema(graphqlSchema)}\n`;
