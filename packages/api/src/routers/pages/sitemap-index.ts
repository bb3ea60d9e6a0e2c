import { replicaReads } from "../../procedures/read-routing";
import { sitemapIndex as readSitemapIndex } from "../../services/pages/pages";
import { openProcedure } from "../../procedures/builders";
import { ZSitemapIndexOutput } from "./sitemap-index.types";

/** The sitemap index: where each bounded page of public profiles starts. */
export const sitemapIndex = openProcedure
  .use(replicaReads)
  .output(ZSitemapIndexOutput)
  .query(({ ctx }) => readSitemapIndex(ctx.readDb));
