import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZEntityProfile, ZGetEntityProfileInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { READ_ONLY, callProcedure, strictInput } from "./shared";
import { toolOutput } from "./tool-output";
import { profileText } from "./tool-text";
import { profileView } from "./tool-views";

const OUTPUT = profileView(ZEntityProfile);

export function registerGetBusinessProfile(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_business_profile",
    {
      title: "Full business profile",
      description: "One business by slug: contact, hours, services and its facts (claims) with source and confidence.",
      // history (superseded claims, key only) stays a REST and tRPC option; the slug rule is the procedure's.
      inputSchema: strictInput(ZGetEntityProfileInput.pick({ slug: true })),
      outputSchema: toolOutput(OUTPUT.schema),
      annotations: READ_ONLY,
    },
    ({ slug }) => callProcedure(() => client.entities.getEntityProfile.query({ slug }), OUTPUT.view, profileText),
  );
}
