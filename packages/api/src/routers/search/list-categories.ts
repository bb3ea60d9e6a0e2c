import { replicaReads } from "../../procedures/read-routing";
import { categoryCatalog } from "../../services/search/category-catalog";
import { anonymousDailyProcedure } from "../../procedures/builders";
import { listCategoriesMeta, ZListCategoriesInput, ZListCategoriesOutput } from "./list-categories.types";

/** GET /api/v2/categories: the valid category values, with their synonyms and listing counts. */
export const listCategories = anonymousDailyProcedure
  .use(replicaReads)
  .meta(listCategoriesMeta)
  .input(ZListCategoriesInput)
  .output(ZListCategoriesOutput)
  .query(({ ctx }) => categoryCatalog(ctx.readDb));
