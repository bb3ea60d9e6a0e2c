import { openProcedure, router, v2Procedure } from "../../trpc";
import { alternativesTo, cachedSitemapPageStarts, directoryOverview, sitemapPage } from "../../services/pages/pages";
import {
  SITEMAP_PAGE_SIZE,
  ZAlternativesInput,
  ZAlternativesOutput,
  ZOverviewInput,
  ZOverviewOutput,
  ZSitemapIndexOutput,
  ZSitemapPageInput,
  ZSitemapPageOutput,
} from "./pages.types";

/** What the HTML pages need beyond the other routers; no REST paths (the pages are their door). */
export const pagesRouter = router({
  /** Popular categories and cities for the home page and the not-found pages. */
  overview: openProcedure
    .input(ZOverviewInput)
    .output(ZOverviewOutput)
    .query(({ ctx, input }) => directoryOverview(ctx.db, input.limit)),
  /** The sitemap index: where each bounded page of public profiles starts. */
  sitemapIndex: openProcedure.output(ZSitemapIndexOutput).query(async ({ ctx }) => {
    const starts = await cachedSitemapPageStarts(ctx.db, SITEMAP_PAGE_SIZE);
    return { pageSize: SITEMAP_PAGE_SIZE, pages: starts.map((from, i) => ({ from, to: starts[i + 1] ?? null })) };
  }),
  /** One sitemap page of servable profile URLs: a slug range, at most SITEMAP_PAGE_SIZE. */
  sitemapPage: openProcedure
    .input(ZSitemapPageInput)
    .output(ZSitemapPageOutput)
    .query(async ({ ctx, input }) => ({ profiles: await sitemapPage(ctx.db, ctx.publicBaseUrl, { from: input.from, to: input.to }, input.limit) })),
  /** Same category, same city: what a 404 or 410 profile page offers instead. 404 for an unknown slug. */
  alternatives: v2Procedure
    .input(ZAlternativesInput)
    .output(ZAlternativesOutput)
    .query(({ ctx, input }) => alternativesTo(ctx.db, ctx.publicBaseUrl, input.slug, input.limit)),
});
