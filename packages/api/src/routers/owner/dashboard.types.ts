import { z } from "zod";
import { AGENCY_ROLES, LEAD_STATUSES, OWNERSHIP_METHODS } from "@directory/db/enums";
import { ZAgencySlug, ZPersonEmail } from "../../procedures/submission-inputs";
import { ZOwnerLongText, ZOwnerText } from "../../services/shared/owner-text-schemas";
import { ZManagedSlug } from "./owner-listing.types";

/** The business a signed-in manager names: required here, where no key may call. */
const ZSlug = ZManagedSlug.unwrap().describe("The slug of a business you manage");

export const ZManagedInput = z.object({ slug: ZSlug });

export const ZOverviewOutput = z.object({
  business: z.object({ slug: z.string(), name: ZOwnerText, ownership: z.enum(["owner_verified", "unclaimed"]) }),
  role: z.enum(["owner", "agency"]).describe("owner: the listing's owner or co-owner; agency: a member of an agency it granted access"),
});

export const ZBusinessKey = z.object({
  id: z.uuid(),
  label: ZOwnerText,
  visiblePrefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export const ZCreateBusinessKeyInput = z.object({ slug: ZSlug, label: z.string().trim().min(1, "a label is needed, to recognise the key by").max(100) });
export const ZCreateBusinessKeyOutput = z.object({ id: z.uuid(), key: z.string().describe("The key itself: shown this once, only its hash is kept") });
export const ZRevokeBusinessKeyInput = z.object({ slug: ZSlug, id: z.uuid() });
export const ZRevoked = z.object({ revoked: z.literal(true) });

export const ZListLeadsInput = z.object({ slug: ZManagedSlug, limit: z.number().int().min(1).max(100).default(100) });
export const ZBusinessLead = z.object({
  leadId: z.string(),
  status: z.enum(LEAD_STATUSES),
  next: z.array(z.enum(LEAD_STATUSES)).describe("The statuses it may move to (leads.transition)"),
  contactName: ZOwnerText,
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  message: ZOwnerLongText,
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const ZCoOwner = z.object({ email: z.string(), method: z.enum(OWNERSHIP_METHODS), since: z.string() });
export const ZCoOwnerInput = z.object({ slug: ZSlug, email: ZPersonEmail });

export const ZGrantedAgency = z.object({ slug: z.string(), name: ZOwnerText, grantedAt: z.string() });
export const ZAgencyAccessInput = z.object({ slug: ZSlug, agencySlug: ZAgencySlug });

export const ZAgencyRole = z.enum(AGENCY_ROLES);

export type TOverviewOutput = z.infer<typeof ZOverviewOutput>;
export type TBusinessKey = z.infer<typeof ZBusinessKey>;
export type TBusinessLead = z.infer<typeof ZBusinessLead>;
export type TCoOwner = z.infer<typeof ZCoOwner>;
export type TGrantedAgency = z.infer<typeof ZGrantedAgency>;
