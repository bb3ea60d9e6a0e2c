import { router } from "../../procedures/trpc-instance";
import { availableCities } from "./available-cities";
import { categoryLeaders } from "./category-leaders";
import { getListicle } from "./get-listicle";
import { listCategories } from "./list-categories";
import { lookupBusinesses } from "./lookup-businesses";
import { searchBusinesses } from "./search-businesses";
import { searchCategory } from "./search-category";
import { searchKeyword } from "./search-keyword";

/** Finding businesses: by category and city, by keywords, leaders, listicles, where a category has listings, and which categories exist. */
export const searchRouter = router({
  searchBusinesses,
  lookupBusinesses,
  searchCategory,
  categoryLeaders,
  searchKeyword,
  getListicle,
  availableCities,
  listCategories,
});
