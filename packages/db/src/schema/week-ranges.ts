import { customType } from "drizzle-orm/pg-core";

/**
 * An int4multirange of minutes of the week in local time (Monday 00:00 = 0, Sunday 24:00 =
 * 10080), read as its text form ("{[540,1080),[1980,2520)}"). Only the database computes and
 * reads it (businesses.open_week); services never parse it.
 */
export const weekRanges = customType<{ data: string }>({
  dataType() {
    return "int4multirange";
  },
});
