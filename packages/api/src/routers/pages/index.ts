import { router } from "../../procedures/trpc-instance";
import { alternatives } from "./alternatives";
import { businessHours } from "./business-hours";
import { overview } from "./overview";
import { sitemapIndex } from "./sitemap-index";
import { sitemapPage } from "./sitemap-page";

/** What the HTML pages need beyond the other routers; no REST paths (the pages are their door). */
export const pagesRouter = router({ overview, sitemapIndex, sitemapPage, alternatives, businessHours });
