import { router } from "../../../procedures/trpc-instance";
import { approveClaim } from "./approve-ownership-claim";
import { listClaims } from "./list-ownership-claims";
import { listOwners } from "./list-listing-owners";
import { rejectClaim } from "./reject-ownership-claim";
import { removeOwner } from "./remove-listing-owner";

/** The operator's side of ownership (claims by review, a listing's owners), over tRPC for the admin CLI; not part of the public REST API. */
export const adminOwnershipRouter = router({
  claims: router({ list: listClaims, approve: approveClaim, reject: rejectClaim }),
  owners: router({ list: listOwners, remove: removeOwner }),
});
