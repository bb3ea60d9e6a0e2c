import { z } from "zod";
import { CORRECTION_STATUSES } from "@directory/db/enums";
import { cleanedJson, ZOwnerLongText } from "../../services/shared/owner-text-schemas";

/** A correction as anyone may read it: never who submitted it. */
export const ZCorrectionView = z.object({
  correctionId: z.string().describe("Poll it at GET /api/v2/corrections/{id}"),
  status: z.enum(CORRECTION_STATUSES).describe("pending (an admin decides), accepted (now a claim), rejected, superseded (another value was accepted)"),
  slug: z.string(),
  property: z.string().describe("The claim property the correction proposes a value for (operatingStatus for a closure)"),
  value: cleanedJson(z.unknown()).describe("The proposed value, cleaned as the claim would hold it"),
  supporters: z.number().int().describe("Independent callers (distinct keys or addresses) who proposed this same value: its weight"),
  claimId: z.string().nullable().describe("The claim an accepted correction became (source correction:<id>, admin_verified)"),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});

/** What an admin and the business's owner also see: the evidence (never fetched by the server) and when the caller saw the fact. */
export const ZCorrectionReview = ZCorrectionView.extend({
  evidence: ZOwnerLongText,
  observedAt: z.string().nullable(),
});

export const ZCorrectionList = z.object({ corrections: z.array(ZCorrectionReview) });

export const ZCorrectionIdInput = z.object({ id: z.string().trim().min(1).max(64).describe("The correctionId submitCorrection returned") });
