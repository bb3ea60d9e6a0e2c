import { signInCompletionProcedure } from "../../procedures/builders";
import { completeSignIn as complete, SIGNED_IN_HOME } from "../../services/accounts/sessions";
import { ZCompleteSignInInput, ZCompleteSignInOutput } from "./sign-in.types";

/** Opens a session from a sign-in link's token (once) and sets its HttpOnly cookie. */
export const completeSignIn = signInCompletionProcedure
  .input(ZCompleteSignInInput)
  .output(ZCompleteSignInOutput)
  .mutation(async ({ ctx, input }) => {
    const { setCookies } = await complete(ctx.db, { token: input.token, publicBaseUrl: ctx.publicBaseUrl, clientIp: ctx.clientIp, userAgent: ctx.userAgent });
    ctx.setHeader("Set-Cookie", setCookies);
    return { signedIn: true as const, home: SIGNED_IN_HOME };
  });
