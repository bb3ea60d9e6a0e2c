import { signInRequestProcedure } from "../../procedures/builders";
import { requestSignIn as request } from "../../services/accounts/sessions";
import { requireMailer } from "../../services/mail/require-mailer";
import { ZRequestSignInOutput } from "./sign-in.types";

/** Mails a one-time sign-in link (valid 15 minutes); the same answer whether or not the address has an account. */
export const requestSignIn = signInRequestProcedure.output(ZRequestSignInOutput).mutation(async ({ ctx, input }) => {
  const mailer = requireMailer(ctx.mailer, "sign in on the service's pages");
  await request(ctx.db, { email: input.email, publicBaseUrl: ctx.publicBaseUrl, mailer });
  return { sent: true as const };
});
