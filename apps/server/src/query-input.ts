import type { IncomingMessage } from "node:http";
import { z } from "zod";

/**
 * A GET's query string as a procedure's input: the one rule of both HTTP doors that read queries,
 * the OpenAPI middleware (trpc-to-openapi, patched to call this) and the partner feed door.
 *
 * - A name given once is one value; given more often, its values (an array, which only an input
 *   that takes an array accepts); an empty value is left out (as unset).
 * - A numeric string becomes a number where the input takes a number, "true" or "false" a boolean
 *   where it takes a boolean. Anything else stays a string, for the input schema to refuse with
 *   its own message.
 *
 * Per request: the shared input schemas are never set to coerce, so tRPC and MCP take no string
 * for a number (limit=true stays an error there).
 */
export function queryInput(req: IncomingMessage, schema: unknown): Record<string, unknown> {
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
  const input: Record<string, unknown> = {};
  for (const [name, values] of queryValues(req)) {
    const field = shape[name] ? baseSchema(shape[name]) : undefined;
    input[name] = values.length > 1 || field instanceof z.ZodArray ? values : coerced(values[0]!, field);
  }
  return input;
}

/** The query's non-empty values by name, in order. */
function queryValues(req: IncomingMessage): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [name, value] of new URL(req.url ?? "/", "http://query.invalid").searchParams) {
    if (value === "") continue;
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return values;
}

/** The schema under optional, default and nullable. */
function baseSchema(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

function coerced(value: string, field: z.ZodType | undefined): unknown {
  if (field instanceof z.ZodNumber && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
  if (field instanceof z.ZodBoolean && (value === "true" || value === "false")) return value === "true";
  return value;
}
