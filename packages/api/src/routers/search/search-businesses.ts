import { openProcedure } from "../../trpc";
import { SCORE_CONTRACT_VERSION } from "../../services/search/completeness";
import { noteLegacyScoreRequest } from "../../services/search/legacy-scores";
import { toListing } from "../../services/search/listing";
import { publicUrls } from "../../services/shared/public-urls";
import { searchCategory } from "../../services/search/category-search";
import { RANKING_DISCLOSURE } from "../../services/search/search";
import { searchBusinessesMeta, ZSearchBusinessesInput, ZSearchBusinessesOutput } from "./search-businesses.types";

export const searchBusinesses = openProcedure
  .meta(searchBusinessesMeta)
  .input(ZSearchBusinessesInput)
  .output(ZSearchBusinessesOutput)
  .query(async ({ ctx, input }) => {
    await noteLegacyScoreRequest(ctx.db, ctx.log, { route: "searchBusinesses", fieldsParam: input.fields, apiKeyId: ctx.apiKey?.id ?? null });
    const result = await searchCategory(ctx.db, input);
    const businesses = result.businesses.map((business) => toListing(business, ctx.publicBaseUrl));
    return {
      businesses,
      total: businesses.length,
      query: { category: input.category, city: input.city },
      browseUrl: publicUrls.browse(ctx.publicBaseUrl, input.category, input.city),
      apiVersion: SCORE_CONTRACT_VERSION,
      rankingDisclosure: RANKING_DISCLOSURE,
    };
  });
