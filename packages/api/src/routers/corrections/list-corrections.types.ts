import { z } from "zod";
import { CORRECTION_STATUSES } from "@directory/db/enums";
import { adminRoute } from "../admin/admin-routes.types";
import { ZCorrectionList } from "./corrections.types";

export const ZListCorrectionsInput = z.object({
  status: z.enum(CORRECTION_STATUSES).optional().describe("Which corrections (default pending)"),
  limit: z.coerce.number().int().min(1).max(200).optional().describe("At most this many (default 50, at most 200)"),
});
export const ZListCorrectionsOutput = ZCorrectionList;

export const listCorrectionsMeta = adminRoute(
  "GET",
  "/corrections",
  "listCorrections",
  "The corrections waiting for a decision (or in another status), with their evidence",
  "The most supported proposals first (supporters: independent callers of the same value), then the oldest. Submitters are never shown.",
  { 400: "Invalid status or limit" },
);
