import { router } from "../../procedures/trpc-instance";
import { getMyCitations } from "./get-my-citations";
import { getMyCorrections } from "./get-my-corrections";
import { updateListing } from "./update-listing";
import { getMyVisibilityScore } from "./get-my-visibility-score";

/** Owner self-service: always the key's own business, so no other business can be named. */
export const ownerRouter = router({ visibility: getMyVisibilityScore, citations: getMyCitations, updateListing, corrections: getMyCorrections });
