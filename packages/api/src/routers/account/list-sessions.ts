import { sessionProcedure } from "../../procedures/builders";
import { listSessions as list } from "../../services/accounts/sessions";
import { ZListSessionsOutput } from "./sessions.types";

/** The person's own sessions (browsers signed in), newest first. */
export const listSessions = sessionProcedure.output(ZListSessionsOutput).query(({ ctx }) => list(ctx.db, ctx.session.account.id, ctx.session.sessionId));
