import type { McpServer } from "@modelcontextprotocol/server";
import { ZGetListicleInput, ZGetListicleOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";
import { listingsText } from "./tool-text";
import { listingsOnce } from "./tool-views";

/** Listings on MCP: the boilerplate once, long owner text to the profile (tool-views.ts). */
const OUTPUT = listingsOnce(ZGetListicleOutput);

export function registerGetListicle(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_listicle",
    {
      title: "Most complete listings in a city",
      description:
        'A "best N" of a category in a city by profile completeness (never paid) or rating; show its disclosure. openNow/openAt and near as in search_businesses. Pages of 10: nextCursor as cursor.',
      inputSchema: toolInput(ZGetListicleInput),
      outputSchema: toolOutput(OUTPUT.schema),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.getListicle.query(input), OUTPUT.view, listingsText),
  );
}
