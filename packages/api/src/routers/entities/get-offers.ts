import { replicaReads } from "../../procedures/read-routing";
import { listOffers } from "../../services/entities/business-extras";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { ZBySlugInput } from "./entities.types";
import { getOffersMeta, ZOffersOutput } from "./get-offers.types";

/** Published products and services with prices (get_offers). */
export const getOffers = anonymousDailyProcedure
  .use(replicaReads)
  .meta(getOffersMeta)
  .input(ZBySlugInput)
  .output(ZOffersOutput)
  .query(({ ctx, input }) => listOffers(ctx.readDb, input));
