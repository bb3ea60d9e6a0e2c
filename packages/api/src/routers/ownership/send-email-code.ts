import { ownershipClaimProcedure } from "../../procedures/builders";
import { sendEmailCode as send } from "../../services/ownership/email-codes";
import { requireMailer } from "../../services/mail/require-mailer";
import { claimingAgencyId } from "../../services/ownership/agency-claims";
import { ZClaimStartInput } from "./ownership.types";
import { ZSendEmailCodeOutput } from "./send-email-code.types";

/** Mails a 6-digit code to the listing's own email (valid 30 minutes, 5 tries); refused when the listing has an owner or no email. For an agency, a member only. */
export const sendEmailCode = ownershipClaimProcedure("email-code", ZClaimStartInput)
  .output(ZSendEmailCodeOutput)
  .mutation(async ({ ctx, input }) => {
    const mailer = requireMailer(ctx.mailer, "claim the listing on the service's pages");
    const accountId = ctx.session.account.id;
    const agencyId = await claimingAgencyId(ctx.db, { agencySlug: input.agencySlug, accountId });
    const sent = await send(ctx.db, { businessId: ctx.listing.id, accountId, agencyId, mailer, now: new Date() });
    return { sentTo: sent.sentTo, expiresAt: sent.expiresAt.toISOString() };
  });
