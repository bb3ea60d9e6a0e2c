import { ownershipClaimProcedure } from "../../procedures/builders";
import { sendEmailCode as send } from "../../services/ownership/email-codes";
import { requireMailer } from "../../services/mail/require-mailer";
import { ZListingSlugInput } from "./ownership.types";
import { ZSendEmailCodeOutput } from "./send-email-code.types";

/** Mails a 6-digit code to the listing's own email (valid 30 minutes, 5 tries); refused when the listing has an owner or no email. */
export const sendEmailCode = ownershipClaimProcedure("email-code", ZListingSlugInput)
  .output(ZSendEmailCodeOutput)
  .mutation(async ({ ctx }) => {
    const mailer = requireMailer(ctx.mailer, "claim the listing on the service's pages");
    const sent = await send(ctx.db, { businessId: ctx.listing.id, accountId: ctx.session.account.id, mailer, now: new Date() });
    return { sentTo: sent.sentTo, expiresAt: sent.expiresAt.toISOString() };
  });
