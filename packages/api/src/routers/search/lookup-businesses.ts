import { DomainError } from "../../errors";
import { SCORE_CONTRACT_VERSION } from "../../services/search/completeness";
import { noteLegacyScoreRequest } from "../../services/search/legacy-scores";
import { toListing } from "../../services/search/listing";
import { rankedCityPage } from "../../services/search/ranked-page";
import { RANKING_DISCLOSURE, resolveCategory, resolveCity } from "../../services/search/search";
import { v2Procedure } from "../../trpc";
import { lookupBusinessesMeta, ZLookupBusinessesInput, ZLookupBusinessesOutput } from "./lookup-businesses.types";

export const lookupBusinesses = v2Procedure
  .meta(lookupBusinessesMeta)
  .input(ZLookupBusinessesInput)
  .output(ZLookupBusinessesOutput)
  .query(async ({ ctx, input }) => {
    await noteLegacyScoreRequest(ctx.db, ctx.log, { route: "lookupBusinesses", fieldsParam: input.fields, apiKeyId: ctx.apiKey?.id ?? null });
    const [category, city] = await Promise.all([resolveCategory(ctx.db, input.category), resolveCity(ctx.db, input.city)]);
    if (!category) throw new DomainError("NOT_FOUND", `Unknown category "${input.category}"`);
    if (!city) throw new DomainError("NOT_FOUND", `Unknown city "${input.city}"`);
    const page = await rankedCityPage(ctx.db, { categorySlug: category.slug, cityId: city.id, limit: input.limit, cursor: input.cursor });
    const listings = page.records.map((business) => toListing(business, ctx.publicBaseUrl));
    return {
      category: { slug: category.slug, name: category.name },
      city: { slug: city.slug, name: city.name, region: city.adminRegion, country: city.countryCode },
      businesses: listings,
      total: listings.length,
      totalMatches: page.total,
      nextCursor: page.nextCursor,
      limit: input.limit,
      apiVersion: SCORE_CONTRACT_VERSION,
      rankingDisclosure: RANKING_DISCLOSURE,
    };
  });
