import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZCitationsInput, ZCitationsOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, READ_ONLY } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetMyCitations(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_my_citations",
    {
      title: "My AI citation checks (business owners)",
      description:
        "For business owners: the authenticated business's recent AI-platform checks, newest first: which engine, which query, when, whether the business was mentioned and at which position in the answer (checks are read from stored AI answers). Requires a business-scoped API key sent as Authorization: Bearer <key> to this MCP server; without one the tool returns an error.",
      inputSchema: ZCitationsInput,
      outputSchema: toolOutput(ZCitationsOutput),
      annotations: READ_ONLY,
    },
    ({ limit }) => callProcedure(() => client.owner.citations.query({ limit })),
  );
}
