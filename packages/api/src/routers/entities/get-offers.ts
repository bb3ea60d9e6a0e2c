import { listOffers } from "../../services/entities/business-extras";
import { v2Procedure } from "../../trpc";
import { ZBySlugInput } from "./entities.types";
import { getOffersMeta, ZOffersOutput } from "./get-offers.types";

/** Published products and services with prices (get_offers). */
export const getOffers = v2Procedure
  .meta(getOffersMeta)
  .input(ZBySlugInput)
  .output(ZOffersOutput)
  .query(({ ctx, input }) => listOffers(ctx.db, input));
