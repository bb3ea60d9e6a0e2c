import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

/*
 * tools/list is read on every turn, so two things the SDK writes on every tool are left out:
 * `$schema` (draft-07) on each input and output schema, 26 times ~15 tokens, and
 * `execution: {taskSupport: "forbidden"}`, which is what an absent `execution` means (MCP spec).
 * Without `$schema` a client reads the schemas as JSON Schema 2020-12 (MCP spec); the keywords
 * they use (type, properties, items as one schema, enum, const, anyOf, bounds) mean the same in both.
 */

type Handler = (...args: unknown[]) => Promise<{ tools?: Record<string, unknown>[] }>;

function withoutDialect(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return schema;
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
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
      inputSchema: withoutDialect(tool.inputSchema),
      ...(tool.outputSchema ? { outputSchema: withoutDialect(tool.outputSchema) } : {}),
    }));
    return { ...answer, tools };
  });
}
