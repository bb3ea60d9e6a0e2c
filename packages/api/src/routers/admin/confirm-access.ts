import { adminProcedure } from "../../procedures/builders";
import { ZConfirmAccessOutput } from "./confirm-access.types";

/**
 * For doors outside the router that only admins may open (the server's /metrics): calling this
 * with the request's context puts the admin check where every other access check is, in the
 * procedure builder, instead of in the door.
 */
export const confirmAccess = adminProcedure.output(ZConfirmAccessOutput).query(() => ({ admin: true as const }));
