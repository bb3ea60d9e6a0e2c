import { replicaReads } from "../../procedures/read-routing";
import { sitemapPage as readSitemapPage } from "../../services/pages/pages";
import { openProcedure } from "../../procedures/builders";
import { ZSitemapPageInput, ZSitemapPageOutput } from "./sitemap-page.types";

/** One sitemap page of servable profile URLs: a slug range, at most SITEMAP_PAGE_SIZE. */
export const sitemapPage = openProcedure
  .use(replicaReads)
  .input(ZSitemapPageInput)
  .output(ZSitemapPageOutput)
  .query(({ ctx, input }) => readSitemapPage(ctx.readDb, { ...input, baseUrl: ctx.publicBaseUrl }));
