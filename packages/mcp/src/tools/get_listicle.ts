import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZGetListicleInput, ZGetListicleOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, strictInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetListicle(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_listicle",
    {
      title: "Most complete listings in a city",
      description:
        'A "best N" list of a category in one city by profile completeness (plan-neutral) or rating. Show the user its disclosure. Pages of up to 10: pass nextCursor as cursor.',
      inputSchema: strictInput(ZGetListicleInput),
      outputSchema: toolOutput(ZGetListicleOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.getListicle.query(input)),
  );
}
