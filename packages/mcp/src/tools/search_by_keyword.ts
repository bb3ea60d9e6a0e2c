import type { McpServer } from "@modelcontextprotocol/server";
import { ZSearchKeywordInput, ZSearchKeywordOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";
import { listingsText } from "./tool-text";
import { listingsOnce } from "./tool-views";

/** Listings on MCP: the boilerplate once, long owner text to the profile (tool-views.ts). */
const OUTPUT = listingsOnce(ZSearchKeywordOutput);

export function registerSearchByKeyword(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "search_by_keyword",
    {
      title: "Free-text business search",
      description:
        "Free-text search over names, descriptions, services, keywords and buyer questions; typos and accents tolerated; a city or country in the words is used. openNow/openAt and near as in search_businesses. Pages of 10: nextCursor as cursor.",
      inputSchema: toolInput(ZSearchKeywordInput),
      outputSchema: toolOutput(OUTPUT.schema),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.searchKeyword.query(input), OUTPUT.view, listingsText),
  );
}
