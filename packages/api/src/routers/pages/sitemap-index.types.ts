import { z } from "zod";

export const ZSitemapIndexOutput = z.object({
  pageSize: z.number().int(),
  pages: z.array(
    z.object({
      from: z.string().describe("The first slug of the page's range, in slug order"),
      to: z.string().nullable().describe("The first slug of the next page's range; null on the last page"),
    }),
  ),
});

export type TSitemapIndexOutput = z.infer<typeof ZSitemapIndexOutput>;
