import { z } from "zod";
import { OWNER_EDITABLE_PROPERTIES } from "@directory/db/enums";
import type { DirectoryMeta } from "../../procedures/meta";
import { ZClaim } from "../entities/entity-profile.types";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";
import { OWNER_EDITABLE_SHAPE, ZManagedSlug } from "./owner-listing.types";

export const ZUpdateListingInput = z
  .object({ slug: ZManagedSlug, ...OWNER_EDITABLE_SHAPE })
  .strict()
  .refine(({ slug: _slug, ...changes }) => Object.values(changes).some((value) => value !== undefined), {
    message: `name at least one of ${OWNER_EDITABLE_PROPERTIES.join(", ")}`,
  });

export const ZUpdateListingOutput = z.object({
  business: z.object({ id: z.string(), slug: z.string(), name: ZOwnerText, ownership: z.enum(["owner_verified", "unclaimed"]) }),
  changed: z.array(z.string()).describe("Properties whose current value this edit changed"),
  recorded: z.array(z.string()).describe("Properties for which a claim was recorded (a value repeated from the same key records nothing)"),
  claims: z.array(ZClaim).describe("The listing's current claims after the edit, with their provenance"),
});

export type TUpdateListingInput = z.input<typeof ZUpdateListingInput>;
export type TUpdateListingOutput = z.infer<typeof ZUpdateListingOutput>;

export const updateListingMeta: DirectoryMeta = {
  openapi: {
    method: "PATCH",
    path: "/api/v2/owner/listing",
    operationId: "updateListing",
    tags: ["owner"],
    summary: "Correct your own listing's facts with its business key",
    description:
      "The business-scoped key decides the business: the body names properties only, and a body naming a business (slug, id) is refused with 403. " +
      "A signed-in owner (the dashboard, over tRPC) names the business with slug instead. " +
      "Each value is recorded as a self-reported claim (source owner:key-<key id>, or owner:account-<account id> signed in; confidence 0.8) that becomes the current one, whatever the listing's ownership; " +
      "a later registry import keeps its differing value as history and does not replace it. The listing turns owner_verified only when an admin verifies the owner. " +
      "Repeating a value an admin verified keeps it admin-verified.",
    errorResponses: {
      400: "Invalid body: an unknown property, a value that fails its rule (the message names the property), or no property at all",
      403: "the body names a business (slug, id): an owner's key edits only its own business",
      410: "The listing is out of service (decommissioned or its subscription expired); an admin reactivates it first",
    },
  },
};
