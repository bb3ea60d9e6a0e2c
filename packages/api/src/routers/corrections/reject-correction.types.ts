import { adminRoute } from "../admin/admin-routes.types";
import { ZCorrectionIdInput, ZCorrectionReview } from "./corrections.types";

export const ZRejectCorrectionInput = ZCorrectionIdInput;
export const ZRejectCorrectionOutput = ZCorrectionReview;

export const rejectCorrectionMeta = adminRoute(
  "POST",
  "/corrections/{id}/reject",
  "rejectCorrection",
  "Reject a correction: no fact changes",
  "Every pending row of the same proposal is rejected with it.",
  { 404: "No correction has this id", 409: "The correction was already decided" },
);
