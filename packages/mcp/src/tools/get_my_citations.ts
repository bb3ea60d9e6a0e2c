import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZCitationsInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY } from "./shared";

export function registerGetMyCitations(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_my_citations",
    {
      title: "My AI citation checks (business owners)",
      description:
        "For business owners: the authenticated business's recent AI-platform checks, newest first: which engine, which query, when, whether the business was mentioned and at which position in the answer (checks are read from stored AI answers). Requires a business-scoped API key sent as Authorization: Bearer <key> to this MCP server; without one the tool returns an error.",
      inputSchema: ZCitationsInput,
      outputSchema: looseOutput({
        business: z.object({ slug: z.string(), name: z.string() }).loose(),
        checks: z.array(z.object({ engine: z.string(), query: z.string(), mentioned: z.boolean(), checkedAt: z.string() }).loose()),
        total: z.number().int(),
      }),
      annotations: READ_ONLY,
    },
    ({ limit }) => callProcedure(() => client.owner.citations.query({ limit })),
  );
}
