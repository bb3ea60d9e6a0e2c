import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZSearchCategoryInput, ZSearchCategoryOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, strictInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerSearchBusinesses(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "search_businesses",
    {
      title: "Search businesses by category",
      description:
        "Businesses of a category, optionally in one city, paid tiers first or best-rated with sort=rating; rankingModel states the order. Slugs feed get_business_profile, get_offers, compare_businesses. Pages of up to 10: pass nextCursor as cursor.",
      inputSchema: strictInput(ZSearchCategoryInput),
      outputSchema: toolOutput(ZSearchCategoryOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.searchCategory.query(input)),
  );
}
