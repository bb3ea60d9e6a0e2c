import { ownershipClaimProcedure } from "../../procedures/builders";
import { checkWebsiteClaim as check } from "../../services/ownership/website-claims";
import { ZCheckWebsiteClaimOutput } from "./check-website-claim.types";
import { ZListingSlugInput } from "./ownership.types";

/** Fetches the listing's website (public addresses only, capped) for the person's token; found: they own the listing. */
export const checkWebsiteClaim = ownershipClaimProcedure("proof", ZListingSlugInput)
  .output(ZCheckWebsiteClaimOutput)
  .mutation(async ({ ctx }) => {
    await check(ctx.db, { businessId: ctx.listing.id, accountId: ctx.session.account.id, policy: ctx.siteOutbound, now: new Date() });
    return { owner: true as const, method: "website" as const, business: { slug: ctx.listing.slug, name: ctx.listing.name } };
  });
