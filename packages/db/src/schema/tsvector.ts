import { customType } from "drizzle-orm/pg-core";

/** PostgreSQL tsvector; read only through SQL (ranking and matching), never as a value. */
export const tsvector = customType<{ data: string }>({
  dataType: () => "tsvector",
});
