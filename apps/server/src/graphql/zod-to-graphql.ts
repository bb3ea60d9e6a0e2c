import { z } from "zod";
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  valueFromASTUntyped,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from "./graphql-js";
import type { FieldCost } from "./limits";

/*
 * Builds the GraphQL door's output types from the procedures' zod output schemas, so a field a
 * procedure gains or loses is a field of the GraphQL type too, with the same nullability. Only the
 * names and descriptions of the types are the door's own (output-types.ts).
 */

/** Any JSON value: schema.org JSON-LD and claim values, as the REST answer has them. */
export const JSONScalar = new GraphQLScalarType({
  name: "JSON",
  description: "Any JSON value, as the REST answer carries it (schema.org JSON-LD, claim values)",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

/** An object or enum type the outputs nest: its description, and the fields ("Type.field") it is the type of. */
export interface NamedType {
  description: string;
  at?: readonly string[];
}

export interface OutputNaming {
  /** Every object and enum type, by its GraphQL name. */
  types: Record<string, NamedType>;
  /** The longest each list of objects ("Type.field") can be, for the cost analysis: the services' caps. */
  listBounds: Record<string, NonNullable<FieldCost["listBound"]>>;
}

/** What two uses of one type name must agree on: the shape, descriptions aside. */
function signatureOf(schema: z.ZodType): string {
  return JSON.stringify(z.toJSONSchema(schema, { io: "output" }), (key, value: unknown) => (key === "description" ? undefined : value));
}

function unwrapped(schema: z.ZodType): { inner: z.ZodType; nullable: boolean } {
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return { inner: unwrapped(schema.unwrap() as z.ZodType).inner, nullable: true };
  return { inner: schema, nullable: false };
}

export function createOutputTypes(naming: OutputNaming) {
  const nameAt = new Map(Object.entries(naming.types).flatMap(([name, { at = [] }]) => at.map((path) => [path, name] as const)));
  const built = new Map<string, { type: GraphQLObjectType | GraphQLEnumType; signature: string }>();
  const usedPaths = new Set<string>();

  function once<T extends GraphQLObjectType | GraphQLEnumType>(name: string, schema: z.ZodType, build: () => T): T {
    const signature = signatureOf(schema);
    const existing = built.get(name);
    if (existing) {
      if (existing.signature !== signature) throw new Error(`GraphQL type ${name} stands for two different output shapes; name them apart in output-types.ts`);
      return existing.type as T;
    }
    const type = build();
    built.set(name, { type, signature });
    return type;
  }

  function description(name: string): string {
    const named = naming.types[name];
    if (!named) throw new Error(`GraphQL type ${name} has no entry in output-types.ts`);
    return named.description;
  }

  function nameFor(path: string): string {
    const name = nameAt.get(path);
    if (!name) throw new Error(`${path} holds an object or enum with no GraphQL name: add it to output-types.ts`);
    usedPaths.add(path);
    return name;
  }

  function baseType(schema: z.ZodType, path: string): GraphQLOutputType {
    if (schema instanceof z.ZodArray) return new GraphQLList(fieldType(schema.element as z.ZodType, path));
    if (schema instanceof z.ZodObject) return objectType(nameFor(path), schema);
    if (schema instanceof z.ZodEnum) {
      const name = nameFor(path);
      const values = Object.fromEntries(schema.options.map((value) => [String(value), { value }]));
      return once(name, schema, () => new GraphQLEnumType({ name, description: description(name), values }));
    }
    if (schema instanceof z.ZodString) return GraphQLString;
    if (schema instanceof z.ZodNumber) return schema.isInt ? GraphQLInt : GraphQLFloat;
    if (schema instanceof z.ZodBoolean) return GraphQLBoolean;
    if (schema instanceof z.ZodLiteral)
      return typeof schema.value === "boolean" ? GraphQLBoolean : typeof schema.value === "number" ? GraphQLFloat : GraphQLString;
    if (schema instanceof z.ZodUnknown || schema instanceof z.ZodRecord) return JSONScalar;
    throw new Error(`${path}: no GraphQL type for a zod ${schema.def.type}`);
  }

  function fieldType(schema: z.ZodType, path: string): GraphQLOutputType {
    const { inner, nullable } = unwrapped(schema);
    const type = baseType(inner, path);
    // z.unknown() admits null itself.
    return nullable || inner instanceof z.ZodUnknown ? type : new GraphQLNonNull(type);
  }

  function costOf(schema: z.ZodType, path: string): { cost: FieldCost } | undefined {
    const { inner } = unwrapped(schema);
    if (!(inner instanceof z.ZodArray) || !(unwrapped(inner.element as z.ZodType).inner instanceof z.ZodObject)) return undefined;
    const listBound = naming.listBounds[path];
    if (listBound === undefined) throw new Error(`${path} is a list of objects with no bound: add the service's cap to listBounds in output-types.ts`);
    usedPaths.add(path);
    return { cost: { listBound } };
  }

  /** The object type of an output schema; `extra` adds the door's own fields (resolvers that call another procedure). */
  function objectType<Source, Context>(name: string, schema: z.ZodObject, extra?: () => GraphQLFieldConfigMap<Source, Context>): GraphQLObjectType {
    return once(
      name,
      schema,
      () =>
        new GraphQLObjectType({
          name,
          description: description(name),
          fields: () => ({
            ...Object.fromEntries(
              Object.entries(schema.shape).map(([key, field]) => {
                const path = `${name}.${key}`;
                return [
                  key,
                  { type: fieldType(field, path), description: field.description ?? unwrapped(field).inner.description, extensions: costOf(field, path) },
                ];
              }),
            ),
            ...extra?.(),
          }),
        }) as GraphQLObjectType,
    );
  }

  /** Names and bounds of fields no output has (any more); read once the schema is built. */
  function unusedPaths(): string[] {
    return [...nameAt.keys(), ...Object.keys(naming.listBounds)].filter((path) => !usedPaths.has(path));
  }

  return { objectType, unusedPaths };
}
