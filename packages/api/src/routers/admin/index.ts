import { router } from "../../trpc";
import { confirmAccess } from "./confirm-access";

/** Admin checks for doors outside the router; the entity lifecycle is its own router (./lifecycle). */
export const adminRouter = router({ confirmAccess });
