import type { City } from "../schema/cities";
import { GUARANTEED_CATEGORY_COUNT, categoriesByPopularity, type DemoCategory } from "./categories";
import { pickCumulative, runningTotals, type Rng } from "./random";

/** The largest cities are guaranteed a full page of every popular category. */
export const GUARANTEED_CITY_COUNT = 20;
export const BUSINESSES_PER_GUARANTEED_PAIR = 12;
/** Of each guaranteed pair, this many are active and unexpired, so a search page is never thin. */
export const LIVE_BUSINESSES_PER_GUARANTEED_PAIR = 10;
/** Small worlds (tests) spend at most this share on guarantees, keeping the rest varied. */
const MAX_GUARANTEED_SHARE = 0.6;

export interface Placement {
  city: City;
  category: DemoCategory;
  /**
   * Position among the businesses that may be decommissioned (inactive or expired); null for
   * those forced active and unexpired by a guaranteed pair's live quota.
   */
  decommissionRank: number | null;
}

export interface Allocation {
  guaranteedCount: number;
  placementFor(index: number, rng: Rng): Placement;
}

/**
 * Businesses 0..guaranteedCount-1 fill (city, category) pairs, largest city first, 12 each; the
 * rest are drawn with weight population x popularity. Only counts are held, never rows, so the
 * plan costs the same for a million businesses as for a thousand.
 */
export function planAllocation(cities: readonly City[], categories: readonly DemoCategory[], total: number): Allocation {
  const topCategories = categoriesByPopularity().slice(0, GUARANTEED_CATEGORY_COUNT);
  const pairs = cities.slice(0, GUARANTEED_CITY_COUNT).flatMap((city) => topCategories.map((category) => ({ city, category })));
  const affordablePairs = Math.floor((total * MAX_GUARANTEED_SHARE) / BUSINESSES_PER_GUARANTEED_PAIR);
  const guaranteedPairs = pairs.slice(0, Math.min(pairs.length, affordablePairs));
  const guaranteedCount = guaranteedPairs.length * BUSINESSES_PER_GUARANTEED_PAIR;
  const spareSlotsPerPair = BUSINESSES_PER_GUARANTEED_PAIR - LIVE_BUSINESSES_PER_GUARANTEED_PAIR;

  const cityTotals = runningTotals(cities.map((city) => city.population));
  const categoryTotals = runningTotals(categories.map((category) => category.popularity));

  return {
    guaranteedCount,
    placementFor(index, rng) {
      if (index < guaranteedCount) {
        const pair = guaranteedPairs[Math.floor(index / BUSINESSES_PER_GUARANTEED_PAIR)];
        if (!pair) throw new Error(`no guaranteed pair for business ${index}`);
        const slot = (index % BUSINESSES_PER_GUARANTEED_PAIR) - LIVE_BUSINESSES_PER_GUARANTEED_PAIR;
        const rank = Math.floor(index / BUSINESSES_PER_GUARANTEED_PAIR) * spareSlotsPerPair + slot;
        return { ...pair, decommissionRank: slot < 0 ? null : rank };
      }
      const city = cities[pickCumulative(cityTotals, rng)];
      const category = categories[pickCumulative(categoryTotals, rng)];
      if (!city || !category) throw new Error("weighted pick out of range");
      return { city, category, decommissionRank: guaranteedPairs.length * spareSlotsPerPair + index - guaranteedCount };
    },
  };
}
