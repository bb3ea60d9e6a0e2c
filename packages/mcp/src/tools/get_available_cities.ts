import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZAvailableCitiesInput, ZAvailableCitiesOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, READ_ONLY } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetAvailableCities(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_available_cities",
    {
      title: "Cities with listings in a category",
      description:
        "The cities that have listings in a category, most listings first. Use it before search_businesses or get_listicle when the user has not named a city, or named one with no results.",
      inputSchema: ZAvailableCitiesInput,
      outputSchema: toolOutput(ZAvailableCitiesOutput),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.availableCities.query(input)),
  );
}
