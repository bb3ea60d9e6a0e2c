import type { McpServer } from "@modelcontextprotocol/server";
import { ZEntityProfile, ZGetEntityProfileInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, toolInput } from "./shared";
import { toolOutput } from "./tool-output";
import { profileText } from "./tool-text";
import { profileView } from "./tool-views";

const OUTPUT = profileView(ZEntityProfile);

export function registerGetBusinessProfile(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_business_profile",
    {
      title: "Full business profile",
      description: "One business by slug: contact, hours, services, its facts (claims) with source, confidence and staleAfter. A key may ask history or asOf.",
      inputSchema: toolInput(ZGetEntityProfileInput),
      outputSchema: toolOutput(OUTPUT.schema),
      annotations: READ_ONLY,
    },
    (input) => callProcedure(() => client.entities.getEntityProfile.query(input), OUTPUT.view, profileText),
  );
}
