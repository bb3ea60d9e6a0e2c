import type { McpServer } from "@modelcontextprotocol/server";
import { ZAvailableCitiesInput, ZAvailableCitiesOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetAvailableCities(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_available_cities",
    {
      title: "Cities with listings in a category",
      description: "Cities with listings in a category, most first. Pages of up to 50: pass nextCursor as cursor.",
      inputSchema: toolInput(ZAvailableCitiesInput),
      outputSchema: toolOutput(ZAvailableCitiesOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.availableCities.query(input)),
  );
}
