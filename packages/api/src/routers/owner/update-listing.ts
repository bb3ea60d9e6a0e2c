import { ownerEditSource, updateOwnListing } from "../../services/owner/owner-edits";
import { businessProcedure } from "../../procedures/builders";
import { updateListingMeta, ZUpdateListingInput, ZUpdateListingOutput } from "./update-listing.types";

/**
 * PATCH /api/v2/owner/listing: with a key, the key's own business (a body naming one is refused by
 * the builder, before the strict schema's generic "unknown key"); signed in, the business `slug` names.
 */
export const updateListing = businessProcedure
  .meta(updateListingMeta)
  .input(ZUpdateListingInput)
  .output(ZUpdateListingOutput)
  .mutation(({ ctx, input: { slug: _slug, ...changes } }) =>
    updateOwnListing(ctx.db, { businessId: ctx.business.id, source: ownerEditSource(ctx.actor), changes }),
  );
