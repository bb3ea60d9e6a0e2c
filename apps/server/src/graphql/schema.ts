import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  printSchema,
  type GraphQLFieldConfig,
  type GraphQLOutputType,
} from "./graphql-js";
import type { createCaller } from "@directory/api";
import { callProcedure } from "./errors";
import type { FieldCost } from "./limits";
import {
  AgentProfile,
  BusinessLookup,
  BuyerQuestions,
  KeywordResults,
  Neighbour,
  NEIGHBOURS_BOUND,
  objectType,
  Offers,
  RankedListings,
  ZCategorySortInput,
  ZEntityProfile,
  ZKeywordSortInput,
} from "./output-types";

/*
 * The GraphQL door's schema (query-only). Every field with a resolver here is one procedure call
 * through the caller's own tRPC caller, so keys, limits, 404/410 and output rules are the API's;
 * every other field reads the procedure's output by the same name. The output types are generated
 * from the procedures' zod output schemas (output-types.ts).
 */

export type DirectoryCaller = ReturnType<typeof createCaller>;

/** A type, not an interface: graphql-http wants a context assignable to a plain record. */
export type GraphQLContext = { caller: DirectoryCaller };

/** Cost hints the limit analysis reads (limits.ts); `procedure` marks a field that calls one. */
function costOf(cost: FieldCost): { cost: FieldCost } {
  return { cost };
}

const nonNull = <T extends GraphQLOutputType>(type: T) => new GraphQLNonNull(type);

interface EntityProfileOutput {
  identity: { id: string; slug: string; name: string; category: string; city: string };
}

/** A field that calls a procedure for the entity it hangs off, by its current slug. */
function entityExtra(
  type: GraphQLObjectType,
  description: string,
  call: (caller: DirectoryCaller, slug: string) => Promise<unknown>,
): GraphQLFieldConfig<EntityProfileOutput, GraphQLContext> {
  return {
    type: nonNull(type),
    description: `${description} One more procedure call, counted like any other.`,
    extensions: costOf({ procedure: true }),
    resolve: (entity, _args, { caller }) => callProcedure(() => call(caller, entity.identity.slug)),
  };
}

/** The identity's name, category and city at the top of the entity, as docs/graphql.md promises. */
function identityField(key: keyof EntityProfileOutput["identity"]): GraphQLFieldConfig<EntityProfileOutput, GraphQLContext> {
  return { type: nonNull(GraphQLString), description: `identity.${key}`, resolve: (entity) => entity.identity[key] };
}

const Entity = objectType<EntityProfileOutput, GraphQLContext>("Entity", ZEntityProfile, () => ({
  id: identityField("id"),
  slug: identityField("slug"),
  name: identityField("name"),
  category: identityField("category"),
  city: identityField("city"),
  offers: entityExtra(Offers, "This business's published offers.", (caller, slug) => caller.entities.getOffers({ slug })),
  buyerQuestions: entityExtra(BuyerQuestions, "Questions buyers ask this business.", (caller, slug) => caller.entities.getBuyerQuestions({ slug })),
  agentProfile: entityExtra(AgentProfile, "This business's agent profile (ABO/1.0).", (caller, slug) => caller.entities.getAgentProfile({ slug })),
  neighbours: {
    type: nonNull(new GraphQLList(nonNull(Neighbour))),
    description:
      "Businesses co-mentioned with this one in AI answers and articles, strongest first (the knowledge graph's network). One more procedure call, counted like any other.",
    extensions: costOf({ procedure: true, listBound: NEIGHBOURS_BOUND }),
    resolve: (entity, _args, { caller }) =>
      callProcedure(async () => {
        const graph = await caller.graph.getKnowledgeGraph({ type: "network", businessId: entity.identity.id });
        return graph.type === "network" ? graph.neighbours : [];
      }),
  },
}));

/** GraphQL null means "not given": the procedure's own default then applies. */
const given = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

const slugArg = { slug: { type: nonNull(GraphQLString), description: "A business slug; a former slug also resolves" } };
const limitArg = (rule: string) => ({ limit: { type: GraphQLInt, description: rule } });

/** A procedure's `sort` values as a GraphQL enum; omitted, the procedure's default order applies. */
function sortEnum(name: string, values: readonly string[], description: string) {
  return new GraphQLEnumType({ name, description, values: Object.fromEntries(values.map((value) => [value, { value }])) });
}
type CategorySortValue = (typeof ZCategorySortInput.options)[number];
type KeywordSortValue = (typeof ZKeywordSortInput.options)[number];
const CategorySort = sortEnum(
  "CategorySort",
  ZCategorySortInput.options,
  "ranking: plan tier first (the default); rating: best-rated first, no rating last, then most reviews; distance: nearest first (needs near)",
);
const KeywordSort = sortEnum(
  "KeywordSort",
  ZKeywordSortInput.options,
  "relevance: text relevance (the default); rating: best-rated first, no rating last, then most reviews; distance: nearest first (needs near)",
);
const sortArg = (type: GraphQLEnumType) => ({ sort: { type, description: "The order; the response's disclosure names the order used" } });

/** A point, typed: REST's near=<lat>,<lng> as GraphQL's natural shape. */
const Point = new GraphQLInputObjectType({
  name: "Point",
  description: "A point in decimal degrees",
  fields: { lat: { type: nonNull(GraphQLFloat), description: "-90 to 90" }, lng: { type: nonNull(GraphQLFloat), description: "-180 to 180" } },
});

/** The place and where-when arguments of the searches, as the procedures take them (their rules and 400s are the procedures'). */
interface WhereWhenArgs {
  country?: string | null;
  openNow?: boolean | null;
  openAt?: string | null;
  near?: { lat: number; lng: number } | null;
  radiusKm?: number | null;
}
const whereWhenArgs = {
  country: { type: GraphQLString, description: "Only this country: an ISO 3166-1 alpha-2 code, e.g. LI (either case)" },
  openNow: { type: GraphQLBoolean, description: "true: only businesses open now, each in its city's time zone" },
  openAt: { type: GraphQLString, description: "Only businesses open at this ISO 8601 instant (Z or an offset)" },
  near: { type: Point, description: "Search around this point; the category is then optional" },
  radiusKm: { type: GraphQLFloat, description: "Radius around near, in km: above 0, at most 50, default 5" },
};
const givenWhereWhen = (args: WhereWhenArgs) => ({
  country: given(args.country),
  openNow: given(args.openNow),
  openAt: given(args.openAt),
  near: given(args.near),
  radiusKm: given(args.radiusKm),
});

function rootField<Args>(
  config: Omit<GraphQLFieldConfig<unknown, GraphQLContext, Args>, "resolve" | "extensions"> & {
    call: (caller: DirectoryCaller, args: Args) => Promise<unknown>;
  },
): GraphQLFieldConfig<unknown, GraphQLContext, Args> {
  const { call, ...rest } = config;
  return { ...rest, extensions: costOf({ procedure: true }), resolve: (_root, args, { caller }) => callProcedure(() => call(caller, args)) };
}

const Query = new GraphQLObjectType<unknown, GraphQLContext>({
  name: "Query",
  description:
    "Query-only: no mutations (use the REST or tRPC operations) and no subscriptions (register a webhook for entity.updated). Each field below is one procedure call.",
  fields: {
    entity: rootField<{ slug: string; history?: boolean | null }>({
      type: Entity,
      description: "The entity profile (GET /api/v2/entity-profile). 404 NOT_FOUND for an unknown slug, 410 ENTITY_DECOMMISSIONED for an inactive business.",
      args: { ...slugArg, history: { type: GraphQLBoolean, description: "true adds superseded claims; needs an API key" } },
      call: (caller, { slug, history }) => caller.entities.getEntityProfile({ slug, history: history ?? undefined }),
    }),
    lookupBusinesses: rootField<{ category?: string | null; city?: string | null; limit?: number | null; sort?: CategorySortValue | null } & WhereWhenArgs>({
      type: BusinessLookup,
      description: "One category in one city (GET /api/v2/businesses); an unknown category or city is a NOT_FOUND that names it. With near, both are optional.",
      args: {
        category: { type: GraphQLString, description: "Category name, plural or synonym; required unless near is given" },
        city: { type: GraphQLString, description: "City name or alias; required unless near is given" },
        ...limitArg("1 to 50, default 10"),
        ...sortArg(CategorySort),
        ...whereWhenArgs,
      },
      call: (caller, args) =>
        caller.search.lookupBusinesses({
          category: given(args.category),
          city: given(args.city),
          limit: given(args.limit),
          sort: given(args.sort),
          ...givenWhereWhen(args),
        }),
    }),
    searchCategory: rootField<{ category?: string | null; city?: string | null; limit?: number | null; sort?: CategorySortValue | null } & WhereWhenArgs>({
      type: RankedListings,
      description: "A category with an optional city, ranked by plan tier then internal score, or by rating (the search_businesses tool)",
      args: {
        category: { type: GraphQLString, description: 'A business category, e.g. "dentist"; required unless near is given' },
        city: { type: GraphQLString, description: "Omit for every city" },
        ...limitArg("1 to 10, default 5"),
        ...sortArg(CategorySort),
        ...whereWhenArgs,
      },
      call: (caller, args) =>
        caller.search.searchCategory({
          category: given(args.category),
          city: given(args.city),
          limit: given(args.limit),
          sort: given(args.sort),
          ...givenWhereWhen(args),
        }),
    }),
    searchKeyword: rootField<{ query: string; city?: string | null; limit?: number | null; sort?: KeywordSortValue | null } & WhereWhenArgs>({
      type: KeywordResults,
      description: "Free text over names, descriptions, services, USPs, taglines, keywords and buyer questions (the search_by_keyword tool)",
      args: {
        query: { type: nonNull(GraphQLString), description: "2 to 200 characters" },
        city: { type: GraphQLString, description: "Omit to search everywhere" },
        ...limitArg("1 to 10, default 5"),
        ...sortArg(KeywordSort),
        ...whereWhenArgs,
      },
      call: (caller, args) =>
        caller.search.searchKeyword({ query: args.query, city: given(args.city), limit: given(args.limit), sort: given(args.sort), ...givenWhereWhen(args) }),
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
