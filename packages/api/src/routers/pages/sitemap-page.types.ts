import { z } from "zod";
import { SITEMAP_PAGE_SIZE } from "../../services/pages/pages";

export const ZSitemapPageInput = z.object({
  from: z.string().trim().min(1).max(200).describe("The start of the page's range, as the index gives it"),
  to: z.string().trim().min(1).max(200).optional().describe("The end of the range (excluded), as the index gives it; omitted on the last page"),
  limit: z.number().int().min(1).max(SITEMAP_PAGE_SIZE).default(SITEMAP_PAGE_SIZE),
});

export const ZSitemapPageOutput = z.object({
  profiles: z.array(z.object({ slug: z.string(), url: z.string(), updatedAt: z.string() })),
});

export type TSitemapPageInput = z.input<typeof ZSitemapPageInput>;
export type TSitemapPageOutput = z.infer<typeof ZSitemapPageOutput>;
