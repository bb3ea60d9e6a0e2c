import { and, asc, eq, gt, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { businesses } from "@directory/db";

/**
 * sort=rating: best-rated first, businesses without a rating last, then most reviews, then name and
 * id (a stable order for paging). Spelled as businesses_rating_idx and businesses_category_rating_idx
 * spell it (`nulls last` on both keys), so PostgreSQL reads a page in index order and never sorts.
 */
export const RATING_ORDER: SQL[] = [
  sql`${businesses.rating} desc nulls last`,
  sql`${businesses.reviewCount} desc nulls last`,
  asc(businesses.name),
  asc(businesses.id),
];

/** The same order over a subquery's columns, for queries that rank candidates by alias. */
export function ratingOrderOf(columns: { rating: SQL; reviewCount: SQL; name: SQL; id: SQL }): SQL {
  return sql`${columns.rating} desc nulls last, ${columns.reviewCount} desc nulls last, ${columns.name}, ${columns.id}`;
}

export interface RatingKeys {
  rating: number | null;
  reviewCount: number;
  name: string;
  id: string;
}

export const RATING_KEY_COLUMNS = { rating: businesses.rating, reviewCount: businesses.reviewCount, name: businesses.name, id: businesses.id };

/**
 * Rows strictly after the given keys in RATING_ORDER. The rating is a REAL: the key read back is
 * compared as a REAL again (`::real`), as a double it would equal no stored rating.
 */
export function afterRating(keys: RatingKeys): SQL {
  const rest = or(
    lt(businesses.reviewCount, keys.reviewCount),
    and(eq(businesses.reviewCount, keys.reviewCount), gt(businesses.name, keys.name)),
    and(eq(businesses.reviewCount, keys.reviewCount), eq(businesses.name, keys.name), gt(businesses.id, keys.id)),
  )!;
  if (keys.rating === null) return and(isNull(businesses.rating), rest)!;
  const rating = sql`${keys.rating}::real`;
  return or(sql`${businesses.rating} < ${rating}`, isNull(businesses.rating), and(sql`${businesses.rating} = ${rating}`, rest))!;
}
