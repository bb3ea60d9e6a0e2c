-- A business without an address has none: null, not an empty string every door then printed
-- (an OpenStreetMap element without addr:* tags and no building around it that has them).
ALTER TABLE "businesses" ALTER COLUMN "address" DROP NOT NULL;--> statement-breakpoint
UPDATE "businesses" SET "address" = NULL WHERE "address" = '';--> statement-breakpoint
-- Their stored feed documents carry "streetAddress":""; the server's start rewrites the missing
-- ones (backfillFeedDocuments) without the empty street.
DELETE FROM "feed_documents" WHERE "document" LIKE '%"streetAddress":""%';
