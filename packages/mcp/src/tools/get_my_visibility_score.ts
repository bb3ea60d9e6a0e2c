import type { McpServer } from "@modelcontextprotocol/server";
import { ZVisibilityOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, READ_ONLY } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetMyVisibilityScore(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_my_visibility_score",
    {
      title: "My visibility score (business owners)",
      description: "Owners, with a business-scoped API key: visibility score, GEO score, AI citation rate.",
      outputSchema: toolOutput(ZVisibilityOutput),
      annotations: READ_ONLY,
    },
    () => callProcedure(() => client.owner.visibility.query()),
  );
}
