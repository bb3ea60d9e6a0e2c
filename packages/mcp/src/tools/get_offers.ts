import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZBySlugInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY, ZBusinessScopedShape } from "./shared";

export function registerGetOffers(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_offers",
    {
      title: "A business's published offers",
      description: "The products and services a business publishes with prices (exact decimal amount and ISO 4217 currency) and an optional expiry date.",
      inputSchema: ZBySlugInput,
      outputSchema: looseOutput({
        ...ZBusinessScopedShape,
        offers: z.array(z.object({ title: z.string(), price: z.string(), currency: z.string() }).loose()),
      }),
      annotations: READ_ONLY,
    },
    ({ slug }) => callProcedure(() => client.entities.getOffers.query({ slug })),
  );
}
