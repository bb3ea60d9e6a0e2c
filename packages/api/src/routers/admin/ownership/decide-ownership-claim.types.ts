import { z } from "zod";
import { ZOwnershipClaimId, type ZOwnershipClaimSummary } from "./ownership-admin.types";

/** An operator's decision on one claim (approve or reject): the claim by its id. */
export const ZDecideOwnershipClaimInput = z.object({ id: ZOwnershipClaimId });

export type TDecideOwnershipClaimInput = z.input<typeof ZDecideOwnershipClaimInput>;
export type TDecideOwnershipClaimOutput = z.infer<typeof ZOwnershipClaimSummary>;
