import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZSearchKeywordInput, ZSearchKeywordOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, READ_ONLY } from "./shared";
import { toolOutput } from "./tool-output";

export function registerSearchByKeyword(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "search_by_keyword",
    {
      title: "Free-text business search",
      description:
        "Free-text search over business names, descriptions, services, USPs, taglines, keywords and buyer-question text, optionally in one city. Typos are tolerated; each result says whether it matched by full text or by a fuzzy name match.",
      inputSchema: ZSearchKeywordInput,
      outputSchema: toolOutput(ZSearchKeywordOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.searchKeyword.query(input)),
  );
}
