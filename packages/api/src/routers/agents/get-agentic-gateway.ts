import { gatewayHandshake, servedProcedures } from "../../services/agents/agent-operations";
import { openProcedure } from "../../procedures/builders";
import { getAgenticGatewayMeta, ZGetAgenticGatewayInput, ZGetAgenticGatewayOutput } from "./get-agentic-gateway.types";

/** What this caller, anonymous or with the key it presented, may and may not call. */
export const getAgenticGateway = openProcedure
  .meta(getAgenticGatewayMeta)
  .input(ZGetAgenticGatewayInput)
  .output(ZGetAgenticGatewayOutput)
  .query(({ ctx, input }) =>
    gatewayHandshake({
      procedures: servedProcedures(),
      caller: { kind: ctx.apiKey?.kind ?? null, businessId: ctx.apiKey?.businessId ?? null },
      agent: input.agent,
    }),
  );
