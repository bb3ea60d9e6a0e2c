import { replicaReads } from "../../procedures/read-routing";
import { rankedListings } from "../../services/search/category-search";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { categoryLeadersMeta, ZCategoryLeadersInput, ZCategoryLeadersOutput } from "./category-leaders.types";

/** The top-ranked businesses of a category across every city (the get_category_leaders tool). */
export const categoryLeaders = anonymousDailyProcedure
  .use(replicaReads)
  .meta(categoryLeadersMeta)
  .input(ZCategoryLeadersInput)
  .output(ZCategoryLeadersOutput)
  .query(({ ctx, input }) => rankedListings(ctx.readDb, { category: input.category, limit: input.limit, cursor: input.cursor, baseUrl: ctx.publicBaseUrl }));
