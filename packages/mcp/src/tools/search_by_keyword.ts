import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZSearchKeywordInput, ZSearchKeywordOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, strictInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerSearchByKeyword(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "search_by_keyword",
    {
      title: "Free-text business search",
      description:
        "Free-text search over names, descriptions, services, keywords and buyer questions, optionally in one city; typos tolerated; matchedBy says how each matched. Pages of up to 10: pass nextCursor as cursor.",
      inputSchema: strictInput(ZSearchKeywordInput),
      outputSchema: toolOutput(ZSearchKeywordOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.searchKeyword.query(input)),
  );
}
