import { router } from "../../procedures/trpc-instance";
import { checkWebsiteClaim } from "./check-website-claim";
import { getClaimStatus } from "./get-claim-status";
import { requestReview } from "./request-review";
import { sendEmailCode } from "./send-email-code";
import { startWebsiteClaim } from "./start-website-claim";
import { verifyEmailCode } from "./verify-email-code";

/** A signed-in person claiming a listing as its owner (session cookie): by its website, its email, or an operator's review; served over tRPC and the pages, not REST. */
export const ownershipRouter = router({
  claimStatus: getClaimStatus,
  startWebsiteClaim,
  checkWebsiteClaim,
  sendEmailCode,
  verifyEmailCode,
  requestReview,
});
