import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

/*
 * tools/list is read on every turn, so two things the SDK writes on every tool are left out:
 * `$schema` (draft-07) on each input and output schema, 26 times ~15 tokens, and
 * `execution: {taskSupport: "forbidden"}`, which is what an absent `execution` means (MCP spec).
 * Without `$schema` a client reads the schemas as JSON Schema 2020-12 (MCP spec); the keywords
 * they use (type, properties, items as one schema, enum, const, anyOf, bounds) mean the same in both.
 *
 * An input schema is listed as a compact view of the procedure's: names, types, required, enums,
 * defaults, numeric ranges, formats and descriptions stay; string lengths, patterns and examples go, with
 * `additionalProperties: false`. They cost ~560 tokens a turn (a date-time pattern alone ~200) and
 * change nothing: every call still goes through strictInput and the procedure, which refuse a
 * too-long string, a bad pattern or an unknown argument with an error naming the field (and, for
 * an unknown argument, the accepted ones), so an agent learns the rule when it matters.
 */

type Handler = (...args: unknown[]) => Promise<{ tools?: Record<string, unknown>[] }>;

type JsonSchema = Record<string, unknown>;

/** String bounds the procedure enforces with a clear error, and examples, not repeated to the agent every turn. */
const INPUT_BOUNDS = new Set(["minLength", "maxLength", "pattern", "example"]);
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions"]);
const isSchema = (value: unknown): value is JsonSchema => typeof value === "object" && value !== null && !Array.isArray(value);

function withoutDialect(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

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

/** Wraps the SDK's tools/list handler (registered with the first tool) to answer it compact. */
export function compactToolsList(server: McpServer): void {
  // The SDK keeps request handlers in a private map; a test counts the tokens, so a change there is seen.
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const list = handlers?.get("tools/list");
  if (!handlers || !list) return;
  handlers.set("tools/list", async (...args) => {
    const answer = await list(...args);
    const tools = answer.tools?.map(({ execution, ...tool }) => ({
      ...tool,
      ...((execution as { taskSupport?: string } | undefined)?.taskSupport === "forbidden" || execution === undefined ? {} : { execution }),
      inputSchema: compactInput(tool.inputSchema),
      ...(tool.outputSchema ? { outputSchema: withoutDialect(tool.outputSchema) } : {}),
    }));
    return { ...answer, tools };
  });
}
