import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZAvailableCitiesInput, ZAvailableCitiesOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, strictInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetAvailableCities(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_available_cities",
    {
      title: "Cities with listings in a category",
      description: "Cities with listings in a category, most first. Pages of up to 50: pass nextCursor as cursor.",
      inputSchema: strictInput(ZAvailableCitiesInput),
      outputSchema: toolOutput(ZAvailableCitiesOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.availableCities.query(input)),
  );
}
