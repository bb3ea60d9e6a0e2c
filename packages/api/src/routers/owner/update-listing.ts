import { DomainError, toTrpcError } from "../../errors";
import { updateOwnListing } from "../../services/owner/owner-edits";
import { businessProcedure } from "../../procedures/builders";
import { BUSINESS_NAMING_KEYS } from "./owner-listing.types";
import { updateListingMeta, ZUpdateListingInput, ZUpdateListingOutput } from "./update-listing.types";

/**
 * PATCH /api/v2/owner/listing: the key's own business, always. A body that names a business
 * (even its own) is refused before it is parsed, so the refusal is a 403 saying why rather than
 * the strict schema's generic "unknown key" 400.
 */
export const updateListing = businessProcedure
  .meta(updateListingMeta)
  .use(async ({ getRawInput, next }) => {
    const raw = await getRawInput();
    const named = raw && typeof raw === "object" ? BUSINESS_NAMING_KEYS.filter((key) => key in raw) : [];
    if (named.length > 0) {
      throw toTrpcError(
        new DomainError(
          "FORBIDDEN",
          `The body names a business (${named.join(", ")}): a business key edits only the business it is bound to; send the properties alone`,
        ),
      );
    }
    return next();
  })
  .input(ZUpdateListingInput)
  .output(ZUpdateListingOutput)
  .mutation(({ ctx, input }) => updateOwnListing(ctx.db, { businessId: ctx.apiKey.businessId, keyId: ctx.apiKey.id, changes: input }));
