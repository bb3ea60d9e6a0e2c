import type { McpServer } from "@modelcontextprotocol/server";
import { ZCategoryLeadersInput, ZCategoryLeadersOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";
import { listingsText } from "./tool-text";
import { listingsOnce } from "./tool-views";

/** Listings on MCP: the boilerplate once, long owner text to the profile (tool-views.ts). */
const OUTPUT = listingsOnce(ZCategoryLeadersOutput);

export function registerGetCategoryLeaders(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_category_leaders",
    {
      title: "Top businesses of a category",
      description: "Top-ranked businesses of a category across all cities, paid tiers first. Pages of up to 10: pass nextCursor as cursor.",
      inputSchema: toolInput(ZCategoryLeadersInput),
      outputSchema: toolOutput(OUTPUT.schema),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.categoryLeaders.query(input), OUTPUT.view, listingsText),
  );
}
