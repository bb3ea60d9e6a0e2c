import { createApiKey as issueApiKey } from "../../services/access/api-keys";
import { adminProcedure } from "../../procedures/builders";
import { ZCreateApiKeyInput, ZCreateApiKeyOutput } from "./create-api-key.types";

/** A new key of any kind; its plaintext is in this answer and nowhere else. */
export const createApiKey = adminProcedure
  .input(ZCreateApiKeyInput)
  .output(ZCreateApiKeyOutput)
  .mutation(({ ctx, input }) => issueApiKey(ctx.db, input));
