import { listicle, LISTICLE_DISCLOSURE } from "../../services/search/listicle";
import { toListing } from "../../services/search/listing";
import { requireResolved, resolvedCategory, resolvedCity } from "../../services/search/resolved";
import { v2Procedure } from "../../trpc";
import { ZGetListicleInput, ZGetListicleOutput } from "./get-listicle.types";

/** "Best N <category> in <city>", ordered by directory score then name; never a paid placement (get_listicle). */
export const getListicle = v2Procedure
  .input(ZGetListicleInput)
  .output(ZGetListicleOutput)
  .query(async ({ ctx, input }) => {
    const result = await listicle(ctx.db, input);
    const category = requireResolved(result.category, "category", input.category);
    const city = requireResolved(result.city, "city", input.city);
    return {
      title: `${input.limit} ${category.name.toLowerCase()} listings in ${city.name} with the most complete profiles`,
      category: resolvedCategory(category),
      city: resolvedCity(city),
      businesses: result.businesses.map((business) => toListing(business, ctx.publicBaseUrl)),
      total: result.businesses.length,
      orderedBy: "directoryCompletenessScore, then name" as const,
      paidPlacement: false as const,
      disclosure: LISTICLE_DISCLOSURE,
    };
  });
