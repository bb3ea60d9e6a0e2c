import { adminProcedure } from "../../../procedures/builders";
import { listAgenciesForOperators } from "../../../services/agencies/agency-admin";
import { ZListAgenciesInput, ZListAgenciesOutput } from "./list-agencies.types";

/** Agencies newest first, each with its members, its businesses and its plan (an agency's plan is its own account's). */
export const listAgencies = adminProcedure
  .input(ZListAgenciesInput)
  .output(ZListAgenciesOutput)
  .query(({ ctx, input }) => listAgenciesForOperators(ctx.db, input));
