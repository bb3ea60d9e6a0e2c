import { z } from "zod";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";

/** Shared pieces of the procedures that name one business by its slug. */
export const ZSlug = z.string().trim().min(1).max(200).describe("A search result's slug; a former slug also resolves");
export const ZBusinessRef = z.object({ slug: z.string(), name: ZOwnerText });

export const ZBySlugInput = z.object({ slug: ZSlug });

export type TBySlugInput = z.input<typeof ZBySlugInput>;
export type TBusinessRef = z.infer<typeof ZBusinessRef>;

/** The refusals every single-business read shares, documented once. */
export const DECOMMISSIONED_RESPONSE =
  "Entity decommissioned (inactive or expired subscription). The body's `reason` says why: `decommissioned` (by an admin), `removed_from_source` (its registry no longer lists it), `subscription_expired`";
export const HISTORY_NEEDS_KEY_RESPONSE = "history=true was asked without an API key";
