import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZSearchKeywordInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY, ZListing } from "./shared";

export function registerSearchByKeyword(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "search_by_keyword",
    {
      title: "Free-text business search",
      description:
        "Free-text search over business names, descriptions, services, USPs, taglines, keywords and buyer-question text, optionally in one city. Typos are tolerated; each result says whether it matched by full text or by a fuzzy name match.",
      inputSchema: ZSearchKeywordInput,
      outputSchema: looseOutput({
        query: z.string(),
        city: z.object({ slug: z.string(), name: z.string() }).loose().nullable(),
        businesses: z.array(ZListing.extend({ matchedBy: z.string() })),
        total: z.number().int(),
        rankingModel: z.string(),
      }),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.searchKeyword.query(input)),
  );
}
