import { ownershipClaimProcedure } from "../../procedures/builders";
import { verifyEmailCode as verify } from "../../services/ownership/email-codes";
import { ZVerifyEmailCodeInput, ZVerifyEmailCodeOutput } from "./verify-email-code.types";

/** The code mailed to the listing: right, the person owns the listing; wrong, a try is used (5 per code). */
export const verifyEmailCode = ownershipClaimProcedure("proof", ZVerifyEmailCodeInput)
  .output(ZVerifyEmailCodeOutput)
  .mutation(async ({ ctx, input }) => {
    await verify(ctx.db, { businessId: ctx.listing.id, accountId: ctx.session.account.id, code: input.code, now: new Date() });
    return { owner: true as const, method: "email" as const, business: { slug: ctx.listing.slug, name: ctx.listing.name } };
  });
