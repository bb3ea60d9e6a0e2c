import { ownershipClaimProcedure } from "../../procedures/builders";
import { claimingAgencyId } from "../../services/ownership/agency-claims";
import { startWebsiteClaim as start } from "../../services/ownership/website-claims";
import { ZClaimStartInput } from "./ownership.types";
import { ZStartWebsiteClaimOutput } from "./start-website-claim.types";

/** A token to put on the listing's website (meta tag or well-known file); refused when the listing has an owner or no website. For an agency, a member only. */
export const startWebsiteClaim = ownershipClaimProcedure("start", ZClaimStartInput)
  .output(ZStartWebsiteClaimOutput)
  .mutation(async ({ ctx, input }) => {
    const accountId = ctx.session.account.id;
    const agencyId = await claimingAgencyId(ctx.db, { agencySlug: input.agencySlug, accountId });
    const started = await start(ctx.db, { businessId: ctx.listing.id, accountId, agencyId, now: new Date() });
    return { ...started, expiresAt: started.expiresAt.toISOString() };
  });
