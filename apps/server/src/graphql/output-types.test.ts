import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter, CLAIM_PROPERTIES, GRAPH_LIMITS, MAX_CLAIMS, MAX_OFFERS, MAX_QUESTIONS, OWNER_TEXT_LIMITS } from "@directory/api";
import { LOOKUP_MAX_LIMIT } from "@directory/api/schemas";
import { getNamedType, GraphQLList, GraphQLNonNull, GraphQLObjectType, type GraphQLOutputType } from "./graphql-js";
import type { FieldCost } from "./limits";
import { unusedPaths } from "./output-types";
import { graphqlSchema } from "./schema";

/** The procedure each root field calls (schema.ts), by tRPC path. */
const ROOT_PROCEDURES: Record<string, string> = {
  entity: "entities.getEntityProfile",
  lookupBusinesses: "search.lookupBusinesses",
  searchCategory: "search.searchCategory",
  searchKeyword: "search.searchKeyword",
  offers: "entities.getOffers",
  buyerQuestions: "entities.getBuyerQuestions",
  agentProfile: "entities.getAgentProfile",
};

/** What the door adds to the entity: its identity's names at the top, and fields that call another procedure. */
const ENTITY_EXTRAS = ["id", "slug", "name", "category", "city", "offers", "buyerQuestions", "agentProfile", "neighbours"];

type Procedures = Record<string, { _def: { output?: z.ZodType; inputs: z.ZodType[] } }>;
const procedure = (path: string) => (appRouter._def.procedures as unknown as Procedures)[path]!._def;

/** The object a field's schema holds, through nullable, optional and array. */
function objectIn(schema: z.ZodType): z.ZodObject | null {
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return objectIn(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return objectIn(schema.element as z.ZodType);
  return schema instanceof z.ZodObject ? schema : null;
}

/** Every GraphQL field of the type is a key of the zod object and the other way round, all the way down. */
function expectSameFields(type: GraphQLObjectType, schema: z.ZodObject, path: string, extras: string[] = []): void {
  const fields = type.getFields();
  expect(
    Object.keys(fields).filter((name) => !extras.includes(name)),
    path,
  ).toEqual(Object.keys(schema.shape));
  for (const [key, field] of Object.entries(schema.shape)) {
    const nested = objectIn(field);
    const named = getNamedType(fields[key]!.type);
    expect(named instanceof GraphQLObjectType, `${path}.${key} is an object in both or in neither`).toBe(nested !== null);
    if (nested && named instanceof GraphQLObjectType) expectSameFields(named, nested, `${path}.${key}`);
  }
}

const typeOf = (name: string) => graphqlSchema.getType(name) as GraphQLObjectType;
const boundOf = (typeName: string, field: string) => (typeOf(typeName).getFields()[field]!.extensions.cost as FieldCost | undefined)?.listBound;

function isListOfObjects(type: GraphQLOutputType): boolean {
  const list = type instanceof GraphQLNonNull ? type.ofType : type;
  return list instanceof GraphQLList && getNamedType(list) instanceof GraphQLObjectType;
}

describe("the GraphQL types are the procedures' output schemas", () => {
  it("each root field's type has exactly the fields of its procedure's output, nested types too", () => {
    const query = graphqlSchema.getQueryType()!.getFields();
    expect(Object.keys(query).sort()).toEqual(Object.keys(ROOT_PROCEDURES).sort());
    for (const [field, path] of Object.entries(ROOT_PROCEDURES)) {
      const output = objectIn(procedure(path).output!)!;
      expectSameFields(getNamedType(query[field]!.type) as GraphQLObjectType, output, field, field === "entity" ? ENTITY_EXTRAS : []);
    }
  });

  it("an entity's neighbours are the knowledge graph network's neighbours", () => {
    const graph = procedure("graph.getKnowledgeGraph").output as z.ZodDiscriminatedUnion<z.ZodObject[]>;
    const network = graph.options.find((option) => option.shape.type instanceof z.ZodLiteral && option.shape.type.value === "network")!;
    expectSameFields(typeOf("Neighbour"), objectIn(network.shape.neighbours as z.ZodType)!, "Neighbour");
  });

  it("names and bounds no field that is gone", () => {
    expect(unusedPaths()).toEqual([]);
  });
});

describe("list bounds are the services' caps", () => {
  it("counts claims at one per claimable property, and at the service's cap in history mode", () => {
    const claims = boundOf("Entity", "claims") as (args: Record<string, unknown>) => number;
    expect(claims({})).toBe(CLAIM_PROPERTIES.length);
    expect(claims({ history: false })).toBe(CLAIM_PROPERTIES.length);
    expect(claims({ history: true })).toBe(MAX_CLAIMS);
  });

  it("takes questions, offers, opening hours, neighbours and listings from the services and the inputs", () => {
    expect(boundOf("BuyerQuestions", "questions")).toBe(MAX_QUESTIONS);
    expect(boundOf("Offers", "offers")).toBe(MAX_OFFERS);
    expect(boundOf("EntityContact", "openingHours")).toBe(OWNER_TEXT_LIMITS.listItems);
    expect(boundOf("Entity", "neighbours")).toBe(GRAPH_LIMITS.neighbours);
    expect(boundOf("Neighbour", "documents")).toBe(GRAPH_LIMITS.documentsPerEdge);
    expect(boundOf("BusinessLookup", "businesses")).toBe(LOOKUP_MAX_LIMIT);
    const toolLimit = (path: string) => ((procedure(path).inputs[0] as z.ZodObject).shape.limit as z.ZodDefault<z.ZodNumber>).unwrap().maxValue;
    expect(boundOf("RankedListings", "businesses")).toBe(toolLimit("search.searchCategory"));
    expect(boundOf("KeywordResults", "businesses")).toBe(toolLimit("search.searchKeyword"));
  });

  it("bounds every list of objects in the schema", () => {
    for (const type of Object.values(graphqlSchema.getTypeMap())) {
      if (!(type instanceof GraphQLObjectType) || type.name.startsWith("__")) continue;
      for (const field of Object.values(type.getFields())) {
        if (isListOfObjects(field.type)) expect(boundOf(type.name, field.name), `${type.name}.${field.name}`).toBeDefined();
      }
    }
  });
});
