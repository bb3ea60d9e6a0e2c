import { z } from "zod";
import { OWNERSHIP_CLAIM_STATUSES } from "@directory/db";
import { OWNERSHIP_CLAIMS_LISTED_MAX } from "../../../services/claims/ownership-review";
import { ZOwnershipClaimSummary } from "./ownership-admin.types";

export const ZListOwnershipClaimsInput = z.object({
  status: z.enum(OWNERSHIP_CLAIM_STATUSES).default("pending"),
  limit: z.number().int().min(1).max(OWNERSHIP_CLAIMS_LISTED_MAX).default(100),
});

export const ZListOwnershipClaimsOutput = z.array(ZOwnershipClaimSummary);

export type TListOwnershipClaimsInput = z.input<typeof ZListOwnershipClaimsInput>;
export type TListOwnershipClaimsOutput = z.infer<typeof ZListOwnershipClaimsOutput>;
