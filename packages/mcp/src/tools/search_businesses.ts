import type { McpServer } from "@modelcontextprotocol/server";
import { ZSearchCategoryInput, ZSearchCategoryOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";
import { listingsText } from "./tool-text";
import { listingsOnce } from "./tool-views";

/** Listings on MCP: the boilerplate once, long owner text to the profile (tool-views.ts). */
const OUTPUT = listingsOnce(ZSearchCategoryOutput);

export function registerSearchBusinesses(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "search_businesses",
    {
      title: "Search businesses by category",
      description:
        "A category's businesses, in one city or all, paid tiers first or sort=rating; rankingModel says the order. openNow/openAt keep those open then; near (+radiusKm) searches around a point, category optional, sort=distance nearest first. Pages of 10: nextCursor as cursor.",
      inputSchema: toolInput(ZSearchCategoryInput),
      outputSchema: toolOutput(OUTPUT.schema),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.searchCategory.query(input), OUTPUT.view, listingsText),
  );
}
