import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZBySlugInput, ZOffersOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, strictInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetOffers(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_offers",
    {
      title: "A business's published offers",
      description: "A business's priced products and services: decimal price, ISO 4217 currency, expiry.",
      inputSchema: strictInput(ZBySlugInput),
      outputSchema: toolOutput(ZOffersOutput),
      annotations: READ_ONLY,
    },
    ({ slug }) => callProcedure(() => client.entities.getOffers.query({ slug })),
  );
}
