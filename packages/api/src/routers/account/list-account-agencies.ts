import { z } from "zod";
import { sessionProcedure } from "../../procedures/builders";
import { listAccountAgencies as list } from "../../services/agencies/agencies";
import { ZAgencyRef } from "../agency/agency.types";

/** The agencies the signed-in person belongs to, with their role in each. */
export const listAccountAgencies = sessionProcedure
  .output(z.array(ZAgencyRef))
  .query(async ({ ctx }) => (await list(ctx.db, ctx.session.account.id)).map(({ slug, name, role }) => ({ slug, name, role })));
