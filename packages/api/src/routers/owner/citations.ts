import { ownCitations } from "../../services/owner/owner-insights";
import { businessProcedure } from "../../trpc";
import { ZCitationsInput, ZCitationsOutput } from "./citations.types";

/** The key's own business: recent AI-platform checks, newest first. */
export const citations = businessProcedure
  .input(ZCitationsInput)
  .output(ZCitationsOutput)
  .query(({ ctx, input }) => ownCitations(ctx.db, { ...input, businessId: ctx.apiKey.businessId }));
