import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { CATEGORY_COUNTS_HARD_MAX_AGE_MS, CATEGORY_COUNTS_MAX_AGE_MS, CATEGORY_LIST_MAX } from "../../services/search/category-catalog";

export const ZListCategoriesInput = z.object({});

export const ZCategoryEntry = z.object({
  slug: z.string().describe('The value to pass as category, e.g. "dentist"'),
  name: z.string(),
  synonyms: z.array(z.string()).describe("Other words that resolve to this category"),
  listings: z.number().int().describe("Active, servable listings in this category, over every city"),
});

export const ZListCategoriesOutput = z.object({
  categories: z.array(ZCategoryEntry).max(CATEGORY_LIST_MAX).describe(`Every category in slug order (at most ${CATEGORY_LIST_MAX})`),
  total: z.number().int().describe("Number of categories in the directory"),
  listingsCountedAt: z.string().describe("When the listing counts were taken (they are held for about a minute)"),
});

export type TListCategoriesInput = z.input<typeof ZListCategoriesInput>;
export type TListCategoriesOutput = z.infer<typeof ZListCategoriesOutput>;
export type TCategoryEntry = z.infer<typeof ZCategoryEntry>;

const minutes = (ms: number) => ms / 60_000;

export const listCategoriesMeta: OpenApiMeta = {
  openapi: {
    method: "GET",
    path: "/api/v2/categories",
    operationId: "listCategories",
    tags: ["search"],
    summary: "Every category with its synonyms and number of listings",
    description:
      "The valid values of every category parameter: slug, name and synonyms (each resolves to the category), with the number of " +
      `active, servable listings. At most ${CATEGORY_LIST_MAX} categories, in slug order, one page. Counts are held for ` +
      `${minutes(CATEGORY_COUNTS_MAX_AGE_MS)} minute and are never more than ${minutes(CATEGORY_COUNTS_HARD_MAX_AGE_MS)} minutes old; listingsCountedAt dates them.`,
  },
};
