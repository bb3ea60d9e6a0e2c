import { ownVisibility } from "../../services/owner/owner-insights";
import { businessProcedure } from "../../trpc";
import { ZVisibilityOutput } from "./visibility.types";

/** The key's own business: its internal scores and citation rate, shown to no one else. */
export const visibility = businessProcedure.output(ZVisibilityOutput).query(({ ctx }) => ownVisibility(ctx.db, ctx.apiKey.businessId));
