import { sessionProcedure } from "../../procedures/builders";
import { signOut as end } from "../../services/accounts/sessions";
import { ZSignOutOutput } from "./sessions.types";

/** Ends this session and clears its cookie. */
export const signOut = sessionProcedure.output(ZSignOutOutput).mutation(async ({ ctx }) => {
  const { setCookies } = await end(ctx.db, { publicBaseUrl: ctx.publicBaseUrl, cookieHeader: ctx.cookieHeader });
  if (setCookies.length > 0) ctx.setHeader("Set-Cookie", setCookies);
  return { signedOut: true as const };
});
