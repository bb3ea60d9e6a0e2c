import { router } from "../../procedures/trpc-instance";
import { acceptCorrection } from "./accept-correction";
import { getCorrectionStatus } from "./get-correction-status";
import { listCorrections } from "./list-corrections";
import { rejectCorrection } from "./reject-correction";
import { submitCorrection } from "./submit-correction";

/** Corrections: anyone submits one and polls its status; an admin lists, accepts or rejects them. */
export const correctionsRouter = router({
  submit: submitCorrection,
  status: getCorrectionStatus,
  list: listCorrections,
  accept: acceptCorrection,
  reject: rejectCorrection,
});
