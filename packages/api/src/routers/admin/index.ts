import { router } from "../../procedures/trpc-instance";
import { addBusiness } from "./add-business";
import { confirmAccess } from "./confirm-access";
import { verifyClaim } from "./verify-claim";
import { unverifyOwner } from "./unverify-owner";
import { verifyOwner } from "./verify-owner";

/** Admin checks for doors outside the router, verification and business add; the entity lifecycle is its own router (./lifecycle). */
export const adminRouter = router({ confirmAccess, verifyClaim, verifyOwner, unverifyOwner, addBusiness });
