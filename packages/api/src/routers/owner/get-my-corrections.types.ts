import { z } from "zod";
import type { DirectoryMeta } from "../../procedures/meta";
import { ZManagedSlug } from "../owner/owner-listing.types";
import { ZCorrectionList } from "../corrections/corrections.types";

export const ZMyCorrectionsInput = z
  .object({
    slug: ZManagedSlug,
    limit: z.coerce.number().int().min(1).max(200).optional().describe("At most this many, newest first (default 50, at most 200)"),
  })
  .optional();
export const ZMyCorrectionsOutput = ZCorrectionList;

export const getMyCorrectionsMeta: DirectoryMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/owner/corrections",
    operationId: "getMyCorrections",
    tags: ["owner"],
    summary: "Corrections proposed on your own listing, with their evidence and status",
    description:
      "The business-scoped key decides the business. Each is a proposal an admin accepts or rejects; who submitted it is never shown. " +
      "A webhook subscribed to correction.created hears of each new one.",
  },
};
