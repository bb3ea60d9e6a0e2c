import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY } from "./shared";

export function registerGetMyVisibilityScore(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_my_visibility_score",
    {
      title: "My visibility score (business owners)",
      description:
        "For business owners: the authenticated business's own visibility score, GEO score and AI citation-rate summary. Requires a business-scoped API key sent as Authorization: Bearer <key> to this MCP server; without one the tool returns an error.",
      outputSchema: looseOutput({
        business: z.object({ slug: z.string(), name: z.string() }).loose(),
        visibilityScore: z.number().nullable(),
        geoScore: z.number().nullable(),
        citationRate: z.object({ checks: z.number(), mentioned: z.number(), rate: z.number().nullable() }).loose(),
        periodDays: z.number(),
      }),
      annotations: READ_ONLY,
    },
    () => callProcedure(() => client.owner.visibility.query()),
  );
}
