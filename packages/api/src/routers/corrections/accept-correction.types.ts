import { adminRoute } from "../admin/admin-routes.types";
import { ZCorrectionIdInput, ZCorrectionReview } from "./corrections.types";

export const ZAcceptCorrectionInput = ZCorrectionIdInput;
export const ZAcceptCorrectionOutput = ZCorrectionReview;

export const acceptCorrectionMeta = adminRoute(
  "POST",
  "/corrections/{id}/accept",
  "acceptCorrection",
  "Accept a correction: its value becomes the current claim",
  "Writes an admin_verified claim (source correction:<id>, confidence 1) superseding the current one, through the claim write path " +
    "(history, webhooks and the change feed see it). Every pending row of the same proposal is accepted; other pending proposals for the property are superseded.",
  { 404: "No correction has this id", 409: "The correction was already decided" },
);
