import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZCategoryLeadersInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY, ZRankedListingsShape } from "./shared";

export function registerGetCategoryLeaders(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_category_leaders",
    {
      title: "Top businesses of a category",
      description:
        "The top-ranked businesses of a category across all cities, ordered by plan tier (premium, pro, basic, free), then an internal visibility score, then name (see rankingModel in the response).",
      inputSchema: ZCategoryLeadersInput,
      outputSchema: looseOutput(ZRankedListingsShape),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.categoryLeaders.query(input)),
  );
}
