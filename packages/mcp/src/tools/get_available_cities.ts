import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZAvailableCitiesInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY } from "./shared";

export function registerGetAvailableCities(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_available_cities",
    {
      title: "Cities with listings in a category",
      description: "The cities that have listings in a category, most listings first. Use it before search_businesses or get_listicle when the user has not named a city, or named one with no results.",
      inputSchema: ZAvailableCitiesInput,
      outputSchema: looseOutput({
        category: z.object({ slug: z.string(), name: z.string() }).loose(),
        cities: z.array(z.object({ name: z.string(), slug: z.string(), country: z.string(), listings: z.number().int() }).loose()),
        total: z.number().int(),
      }),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.search.availableCities.query(input)),
  );
}
