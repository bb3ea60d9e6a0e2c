import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";
import { withListedJsonSchema } from "./tools-list";

/*
 * A tool's outputSchema is its procedure's zod output schema, never a shape written for the tool.
 * The SDK checks every result against that schema, and lists it in tools/list as compacted here. The listing is kept compact, as tools/list is read on every turn: field names,
 * types, enums, constants and nullability stay; what costs tokens and tells an agent little goes:
 * descriptions (the REST and SDK documentation carries them), `required` and
 * `additionalProperties: false` (a result may carry more than is listed), bounds (lengths, ranges,
 * formats: the result already keeps them), and `anyOf [X, null]` is written as X with null among
 * its types. A tool whose MCP result is a narrower view (tool-views.ts) lists the view's schema,
 * derived from the procedure's with .pick/.omit.
 */

type JsonSchema = Record<string, unknown>;

/** Keywords whose value is a map from names (properties) to schemas, not a schema itself. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions"]);
const DROPPED = new Set(["$schema", "title", "description", "examples", "required", "propertyNames"]);
/** Bounds a result keeps but an agent need not be told: a string's length, a number's range. */
const BOUNDS = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "pattern", "format"]);

const isSchema = (value: unknown): value is JsonSchema => typeof value === "object" && value !== null && !Array.isArray(value);

function isNoise(key: string, value: unknown): boolean {
  if (DROPPED.has(key)) return true;
  return key === "additionalProperties" && (value === false || (isSchema(value) && Object.keys(value).length === 0));
}

/** `anyOf: [X, {type: "null"}]` as X with null among its types: the same values, half the tokens. */
function nullableInline(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(schema).length !== 1) return schema;
  const nullIndex = options.findIndex((option) => isSchema(option) && option.type === "null" && Object.keys(option).length === 1);
  const other = options[1 - nullIndex] as JsonSchema | undefined;
  if (nullIndex < 0 || !isSchema(other) || typeof other.type !== "string") return schema;
  const { const: constant, enum: values, ...rest } = other;
  const nullable: JsonSchema = { ...rest, type: [other.type, "null"] };
  // enum and const limit the values: null must be among them too.
  if (Array.isArray(values)) nullable.enum = [...(values as unknown[]), null];
  else if (constant !== undefined) nullable.enum = [constant, null];
  return nullable;
}

function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!isSchema(node)) return node;
  const kept: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (isNoise(key, value) || (BOUNDS.has(key) && typeof value !== "object")) continue;
    kept[key] =
      SCHEMA_MAPS.has(key) && isSchema(value) ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, compact(schema)])) : compact(value);
  }
  // A tuple of one shape (compare_businesses' pair) lists that shape once, its length kept.
  const tuple = kept.prefixItems;
  if (Array.isArray(tuple) && tuple.every((item) => JSON.stringify(item) === JSON.stringify(tuple[0]))) {
    delete kept.prefixItems;
    kept.items = tuple[0];
  }
  return nullableInline(kept);
}

/**
 * Types said once: an enum or a const already names every value (null among them when nullable),
 * and a nested object's `properties` say it is an object. Leaves keep their type; the root keeps
 * `type: "object"`, which MCP requires of an output schema.
 */
function terse(node: unknown, root: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => terse(item, false));
  if (!isSchema(node)) return node;
  const kept: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    kept[key] =
      SCHEMA_MAPS.has(key) && isSchema(value)
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, terse(schema, false)]))
        : terse(value, false);
  }
  if (Array.isArray(kept.enum) || kept.const !== undefined) delete kept.type;
  else if (!root && kept.type === "object" && isSchema(kept.properties)) delete kept.type;
  return kept;
}

/** The procedure's output schema as tools/list shows it. */
export function listedOutputSchema(schema: z.ZodType): JsonSchema {
  return terse(compact(z.toJSONSchema(schema, { io: "output" })), true) as JsonSchema;
}

/** Made once per schema: the schemas are module constants, so they key the cache for the life of the process. */
const toolOutputs = new WeakMap<z.ZodObject, StandardSchemaWithJSON>();

/** The procedure's output schema for registerTool: it validates as the procedure's, and lists compact. */
export function toolOutput<Schema extends z.ZodObject>(schema: Schema): StandardSchemaWithJSON<z.input<Schema>, z.output<Schema>> {
  const made = toolOutputs.get(schema);
  if (made) return made as StandardSchemaWithJSON<z.input<Schema>, z.output<Schema>>;
  const output = withListedJsonSchema(schema, listedOutputSchema(schema));
  toolOutputs.set(schema, output);
  return output;
}
