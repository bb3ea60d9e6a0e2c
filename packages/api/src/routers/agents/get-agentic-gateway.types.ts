import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";

export const ZGetAgenticGatewayInput = z.object({
  agent: z.string().trim().min(1).max(200).optional().describe("The calling agent's name and version, e.g. acme-assistant/2.1"),
});

export const ZGetAgenticGatewayOutput = z.object({
  agent: z.string().nullable(),
  identity: z.object({ kind: z.string().describe("anonymous, developer, partner, business or admin"), businessId: z.string().nullable() }),
  mayCall: z.array(z.object({ operation: z.string(), rest: z.string().describe('Its REST route, e.g. "GET /api/v2/cities"'), mcpTool: z.string().nullable() })),
  mayNotCall: z.array(z.object({ operation: z.string(), needs: z.string() })),
  consentRule: z.string(),
});

export type TGetAgenticGatewayInput = z.input<typeof ZGetAgenticGatewayInput>;
export type TGetAgenticGatewayOutput = z.infer<typeof ZGetAgenticGatewayOutput>;

export const getAgenticGatewayMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/agentic-gateway",
    operationId: "getAgenticGateway",
    tags: ["agents"],
    summary: "Machine-to-machine handshake: what this caller (anonymous or keyed) may call",
  },
};
