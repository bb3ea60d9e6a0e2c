import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZSearchCategoryInput, ZSearchCategoryOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, READ_ONLY } from "./shared";
import { toolOutput } from "./tool-output";

export function registerSearchBusinesses(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "search_businesses",
    {
      title: "Search businesses by category",
      description:
        "Find businesses of a category, optionally in one city. Results are ordered by plan tier (premium, pro, basic, free), then an internal visibility score, then name; the response states this in rankingModel. Verified and unclaimed listings are both included. Use the returned slug with get_business_profile, get_offers or compare_businesses.",
      inputSchema: ZSearchCategoryInput,
      outputSchema: toolOutput(ZSearchCategoryOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.searchCategory.query(input)),
  );
}
