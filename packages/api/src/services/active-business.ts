import { and, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import { businesses } from "@directory/db";

/**
 * The SQL twin of isDecommissioned: active status and an unexpired (or no) subscription. Every
 * list that shows businesses to the public filters with this.
 */
export function servableCondition(): SQL {
  return and(eq(businesses.status, "active"), or(isNull(businesses.subscriptionExpiresAt), gt(businesses.subscriptionExpiresAt, sql`now()`)))!;
}
