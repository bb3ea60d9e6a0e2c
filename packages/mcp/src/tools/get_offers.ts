import type { McpServer } from "@modelcontextprotocol/server";
import { ZBySlugInput, ZOffersOutput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";

export function registerGetOffers(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_offers",
    {
      title: "A business's published offers",
      description: "A business's priced products and services: decimal price, ISO 4217 currency, expiry.",
      inputSchema: toolInput(ZBySlugInput),
      outputSchema: toolOutput(ZOffersOutput),
      annotations: READ_ONLY,
    },
    ({ slug }) => callProcedure(() => client.entities.getOffers.query({ slug })),
  );
}
