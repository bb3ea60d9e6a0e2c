import type { CallToolResult, StandardSchemaWithJSON, ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import { directoryErrorOf } from "@directory/sdk";
import { toolText } from "./tool-text";
import { compactInput, withListedJsonSchema } from "./tools-list";
import type { ToolView } from "./tool-views";

/** Longest string a tool result carries; longer ones are cut with a note so results stay small. */
export const MAX_STRING_LENGTH = 2_000;

/** destructiveHint and idempotentHint mean something only when readOnlyHint is false (MCP spec): not listed. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/**
 * A tool's input that refuses an unknown argument, naming the accepted ones, where a plain object
 * would drop it silently (an agent passing `offset` would get the first page again and not know).
 * Built from the procedure's own fields, so their rules and descriptions stay the procedure's.
 */
export function strictInput<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  // Checks on the object as a whole would be lost by rebuilding it from its fields: refuse them here.
  if (schema.def.checks?.length) throw new Error("strictInput: the schema has object-level checks; move them to fields");
  const accepted = Object.keys(schema.shape).join(", ");
  return z.strictObject(schema.shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown argument ${issue.keys.join(", ")}: this tool accepts ${accepted}` : undefined),
  });
}

const toolInputs = new WeakMap<z.ZodObject, StandardSchemaWithJSON>();

/**
 * A tool's inputSchema: toolInput of the procedure's input, listed compact (tools-list.ts). Made
 * once per schema, as a server is made for every request: pass a module constant, not a fresh .pick().
 */
export function toolInput<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  type Strict = ReturnType<typeof strictInput<Shape>>;
  const made = toolInputs.get(schema);
  if (made) return made as StandardSchemaWithJSON<z.input<Strict>, z.output<Strict>>;
  const strict = strictInput(schema);
  const input = withListedJsonSchema(strict, compactInput(z.toJSONSchema(strict, { io: "input" })) as Record<string, unknown>);
  toolInputs.set(schema, input);
  return input;
}

/** Cuts every string longer than MAX_STRING_LENGTH, saying how much was left out. */
export function truncateStrings<T>(value: T): T {
  if (typeof value === "string") {
    if (value.length <= MAX_STRING_LENGTH) return value;
    return `${value.slice(0, MAX_STRING_LENGTH)}… [truncated: ${value.length - MAX_STRING_LENGTH} more characters]` as T;
  }
  if (Array.isArray(value)) return value.map((item) => truncateStrings(item)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, truncateStrings(item)])) as T;
  }
  return value;
}

/** A failed call as a tool error the agent can read; never a protocol error. */
export function toolError(error: unknown): CallToolResult {
  const directoryError = directoryErrorOf(error);
  const text = directoryError
    ? `${directoryError.error} (${directoryError.code}, HTTP ${directoryError.status})`
    : `The directory service could not complete the request: ${error instanceof Error ? error.message : String(error)}`;
  return { isError: true, content: [{ type: "text", text }] };
}

/**
 * Runs one procedure call and returns its result once: the data as structuredContent, and for
 * the model a compact text rendering of it (tool-text.ts says why), not the same JSON again.
 * A tool with a narrower MCP view (tool-views.ts) passes it: the result then carries the fields its output schema names.
 * A tool whose text leads with a summary (the profile's standing) passes its own rendering.
 */
export async function callProcedure(
  call: () => Promise<object>,
  view?: ToolView["view"],
  text: (result: Record<string, unknown>) => string = toolText,
): Promise<CallToolResult> {
  try {
    const answer = (await call()) as Record<string, unknown>;
    const result = truncateStrings(view ? view(answer) : answer);
    return { content: [{ type: "text", text: text(result) }], structuredContent: result };
  } catch (error) {
    return toolError(error);
  }
}
