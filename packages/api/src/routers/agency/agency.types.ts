import { z } from "zod";
import { AGENCY_ROLES } from "@directory/db/enums";
import { ZPersonEmail } from "../../procedures/submission-inputs";
import { ZOwnerText } from "../../services/shared/owner-text-schemas";
import { ZAccountKey } from "../account/account-keys.types";

export const ZAgencyRef = z.object({ slug: z.string(), name: ZOwnerText, role: z.enum(AGENCY_ROLES).describe("Your role in it") });

export const ZCreateAgencyInput = z.object({ name: z.string().trim().min(2, "an agency needs a name").max(100).pipe(ZOwnerText) });

export const ZAgencyBusiness = z.object({
  slug: z.string(),
  name: ZOwnerText,
  city: z.string(),
  verified: z.boolean(),
  staleFacts: z.number().int().describe("Facts past their useful life"),
  visibilityScore: z.number().int().describe("Internal visibility score 0-100, for the agency that manages it only"),
  newLeads: z.number().int(),
  openCorrections: z.number().int(),
});

export const ZAgencyMember = z.object({ email: z.string(), role: z.enum(AGENCY_ROLES), addedAt: z.string() });

export const ZAgencyOverview = z.object({
  agency: ZAgencyRef,
  businesses: z.array(ZAgencyBusiness),
  members: z.array(ZAgencyMember),
  plan: z.object({ name: z.string(), activeUntil: z.string() }).nullable().describe("The agency's developer plan; null: its keys are on the trial quota"),
});

export const ZInviteMemberInput = z.object({ email: ZPersonEmail, role: z.enum(AGENCY_ROLES).default("member") });
export const ZRemoveMemberInput = z.object({ email: ZPersonEmail });

export const ZRemoveMemberOutput = z.object({ removed: z.literal(true) });

export const ZAgencyKeys = z.array(ZAccountKey);

export type TAgencyOverview = z.infer<typeof ZAgencyOverview>;
export type TAgencyRef = z.infer<typeof ZAgencyRef>;
