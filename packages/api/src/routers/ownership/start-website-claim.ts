import { ownershipClaimProcedure } from "../../procedures/builders";
import { startWebsiteClaim as start } from "../../services/ownership/website-claims";
import { ZListingSlugInput } from "./ownership.types";
import { ZStartWebsiteClaimOutput } from "./start-website-claim.types";

/** A token to put on the listing's website (meta tag or well-known file); refused when the listing has an owner or no website. */
export const startWebsiteClaim = ownershipClaimProcedure("start", ZListingSlugInput)
  .output(ZStartWebsiteClaimOutput)
  .mutation(async ({ ctx }) => {
    const started = await start(ctx.db, { businessId: ctx.listing.id, accountId: ctx.session.account.id, now: new Date() });
    return { ...started, expiresAt: started.expiresAt.toISOString() };
  });
