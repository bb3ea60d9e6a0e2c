import { listApiKeys as readApiKeys } from "../../services/access/api-keys";
import { adminProcedure } from "../../procedures/builders";
import { ZListApiKeysInput, ZListApiKeysOutput } from "./list-api-keys.types";

/** Keys newest first, revoked ones on request. */
export const listApiKeys = adminProcedure
  .input(ZListApiKeysInput)
  .output(ZListApiKeysOutput)
  .query(({ ctx, input }) => readApiKeys(ctx.db, input));
