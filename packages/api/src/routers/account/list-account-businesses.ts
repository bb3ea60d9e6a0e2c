import { sessionProcedure } from "../../procedures/builders";
import { listAccountBusinesses as list } from "../../services/accounts/account-businesses";
import { ZListAccountBusinessesOutput } from "./list-account-businesses.types";

/** The listings the signed-in person owns. */
export const listAccountBusinesses = sessionProcedure.output(ZListAccountBusinessesOutput).query(({ ctx }) => list(ctx.db, ctx.session.account.id));
