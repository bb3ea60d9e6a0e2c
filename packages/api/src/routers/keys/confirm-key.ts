import { keyedProcedure } from "../../procedures/builders";
import { ZConfirmKeyOutput } from "./confirm-key.types";

/**
 * For doors outside the router that keep room for callers with a valid API key (the legacy MCP SSE
 * sessions' reserve): the key check stays in the procedure builder, and the call counts against the
 * key's quota like any other.
 */
export const confirmKey = keyedProcedure.output(ZConfirmKeyOutput).query(() => ({ keyed: true as const }));
