import type { DirectoryMeta } from "../../procedures/meta";
import { ZCorrectionIdInput, ZCorrectionView } from "./corrections.types";

export const ZCorrectionStatusInput = ZCorrectionIdInput;
export const ZCorrectionStatusOutput = ZCorrectionView;

export const getCorrectionStatusMeta: DirectoryMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/corrections/{id}",
    operationId: "getCorrectionStatus",
    tags: ["corrections"],
    summary: "A correction's status (public; never who submitted it)",
    description: "Anyone holding the correctionId may poll it: its status, the proposed value, its supporters and, once accepted, the claim it became.",
    errorResponses: { 404: "No correction has this id" },
  },
};
