import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZGetListicleInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY, ZListing } from "./shared";

export function registerGetListicle(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_listicle",
    {
      title: "Most complete listings in a city",
      description:
        'A "best N" style list of a category in one city, ordered by directory completeness score (how complete the profile is; the plan adds nothing to it), then name. Not a paid placement; the response carries the disclosure to show the user.',
      inputSchema: ZGetListicleInput,
      outputSchema: looseOutput({
        title: z.string(),
        category: z.object({ slug: z.string(), name: z.string() }).loose(),
        city: z.object({ slug: z.string(), name: z.string() }).loose(),
        businesses: z.array(ZListing),
        total: z.number().int(),
        orderedBy: z.string(),
        paidPlacement: z.boolean(),
        disclosure: z.string(),
      }),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.getListicle.query(input)),
  );
}
