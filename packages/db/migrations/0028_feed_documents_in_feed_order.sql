-- The partner feed reads a page's documents in its own order, (updated_at, id). Documents stored
-- before the backfill wrote them in that order lie in business-id order, so a page of 500 of them
-- sat on ~495 scattered table pages (PostgreSQL's time for a walk's page: 7 ms against 5 at 1M).
-- This writes them once in the feed's order. The order then holds by itself: a document rewritten
-- later goes to the table's end, where its new updated_at puts it in the feed too.
CREATE TEMP TABLE "feed_documents_in_order" AS
  SELECT d."business_id", d."document", d."changed_at", b."updated_at" AS "feed_updated_at"
  FROM "feed_documents" d JOIN "businesses" b ON b."id" = d."business_id";--> statement-breakpoint
TRUNCATE "feed_documents";--> statement-breakpoint
INSERT INTO "feed_documents" ("business_id", "document", "changed_at")
  SELECT "business_id", "document", "changed_at" FROM "feed_documents_in_order" ORDER BY "feed_updated_at", "business_id";--> statement-breakpoint
DROP TABLE "feed_documents_in_order";
