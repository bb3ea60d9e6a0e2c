import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ZGetEntityProfileInput } from "@directory/api/schemas";
import type { DirectoryClient } from "@directory/sdk";
import { callProcedure, looseOutput, READ_ONLY } from "./shared";

export function registerGetBusinessProfile(server: McpServer, client: DirectoryClient) {
  server.registerTool(
    "get_business_profile",
    {
      title: "Full business profile",
      description:
        "The full structured record of one business by slug: identity, contact, AI signals, services, schema.org JSON-LD and provenance-tracked claims (each with a source and confidence; self-reported or admin-verified).",
      // history (superseded claims, key only) stays a REST and tRPC option; the slug rule is the procedure's.
      inputSchema: ZGetEntityProfileInput.pick({ slug: true }),
      outputSchema: looseOutput({
        apiVersion: z.string(),
        identity: z.object({ id: z.string(), slug: z.string(), name: z.string() }).loose(),
        contact: z.object({}).loose(),
        aiSignals: z.object({}).loose(),
        services: z.array(z.string()),
        structuredData: z.record(z.string(), z.unknown()),
        claims: z.array(z.object({ property: z.string(), source: z.string() }).loose()),
        links: z.object({ profileUrl: z.string() }).loose(),
      }),
      annotations: READ_ONLY,
    },
    ({ slug }) => callProcedure(() => client.entities.getEntityProfile.query({ slug })),
  );
}
