import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { z } from "zod";

/*
 * tools/list is read on every turn, so each tool's schemas are listed as compact views of the
 * procedure's, not as zod would write them; the SDK lists what a schema's Standard JSON Schema
 * side gives (withListedJsonSchema below), while validation stays zod's own. `$schema` is left
 * out: without it a client reads the schemas as JSON Schema 2020-12 (MCP spec); the keywords they
 * use (type, properties, items as one schema, enum, const, anyOf, bounds) mean the same in both.
 *
 * An input schema is listed as a compact view of the procedure's: names, types, required, enums,
 * defaults, numeric ranges, formats and descriptions stay; string lengths, patterns and examples go, with
 * `additionalProperties: false`. They cost ~560 tokens a turn (a date-time pattern alone ~200) and
 * change nothing: every call still goes through toolInput and the procedure, which refuse a
 * too-long string, a bad pattern or an unknown argument with an error naming the field (and, for
 * an unknown argument, the accepted ones), so an agent learns the rule when it matters.
 */

type JsonSchema = Record<string, unknown>;

/** String bounds the procedure enforces with a clear error, and examples, not repeated to the agent every turn. */
const INPUT_BOUNDS = new Set(["minLength", "maxLength", "pattern", "example"]);
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions"]);
const isSchema = (value: unknown): value is JsonSchema => typeof value === "object" && value !== null && !Array.isArray(value);

/** The compact view of a tool's input schema that tools/list shows (see above). */
export function compactInput(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactInput);
  if (!isSchema(schema)) return schema;
  const kept: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema" || (INPUT_BOUNDS.has(key) && typeof value !== "object") || (key === "additionalProperties" && value === false)) continue;
    kept[key] =
      SCHEMA_MAPS.has(key) && isSchema(value)
        ? Object.fromEntries(Object.entries(value).map(([name, item]) => [name, compactInput(item)]))
        : compactInput(value);
  }
  return kept;
}

/**
 * The zod schema as the SDK takes it: zod validates (its rules, its messages), and tools/list shows
 * `listed`, the compact JSON Schema made once per schema (an MCP server is made for every request).
 */
export function withListedJsonSchema<Schema extends z.ZodType>(schema: Schema, listed: JsonSchema): StandardSchemaWithJSON<z.input<Schema>, z.output<Schema>> {
  const zodSide = schema["~standard"];
  return {
    "~standard": {
      version: 1,
      vendor: "directory",
      validate: (value) => zodSide.validate(value),
      jsonSchema: { input: () => structuredClone(listed), output: () => structuredClone(listed) },
    },
  };
}
