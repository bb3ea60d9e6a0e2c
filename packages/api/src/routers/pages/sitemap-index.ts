import { sitemapIndex as readSitemapIndex } from "../../services/pages/pages";
import { openProcedure } from "../../procedures/builders";
import { ZSitemapIndexOutput } from "./sitemap-index.types";

/** The sitemap index: where each bounded page of public profiles starts. */
export const sitemapIndex = openProcedure.output(ZSitemapIndexOutput).query(({ ctx }) => readSitemapIndex(ctx.db));
