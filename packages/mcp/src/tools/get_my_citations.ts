import type { McpServer } from "@modelcontextprotocol/server";
import { ZCitationsInput, ZCitationsOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetMyCitations(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_my_citations",
    {
      title: "My AI citation checks (business owners)",
      description: "Owners, with a business-scoped API key: recent AI-answer checks, newest first.",
      inputSchema: toolInput(ZCitationsInput),
      outputSchema: toolOutput(ZCitationsOutput),
      annotations: READ_ONLY,
    },
    ({ limit }) => callProcedure(() => client.owner.citations.query({ limit })),
  );
}
