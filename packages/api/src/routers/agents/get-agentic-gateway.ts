import { gatewayHandshake, type RouterProcedures } from "../../services/agents/agent-operations";
import { openProcedure } from "../../procedures/builders";
import { getAgenticGatewayMeta, ZGetAgenticGatewayInput, ZGetAgenticGatewayOutput } from "./get-agentic-gateway.types";

/**
 * The router's procedures, whose meta the handshake reads. Imported when called: root.ts imports
 * this file, so importing root.ts up front would be a cycle.
 */
export async function routerProcedures(): Promise<RouterProcedures> {
  const { appRouter } = await import("../../root");
  return appRouter._def.procedures as unknown as RouterProcedures;
}

/** What this caller, anonymous or with the key it presented, may and may not call. */
export const getAgenticGateway = openProcedure
  .meta(getAgenticGatewayMeta)
  .input(ZGetAgenticGatewayInput)
  .output(ZGetAgenticGatewayOutput)
  .query(async ({ ctx, input }) =>
    gatewayHandshake({
      procedures: await routerProcedures(),
      caller: { kind: ctx.apiKey?.kind ?? null, businessId: ctx.apiKey?.businessId ?? null },
      agent: input.agent,
    }),
  );
