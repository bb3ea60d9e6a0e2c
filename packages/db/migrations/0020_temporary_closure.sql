ALTER TABLE "businesses" ADD COLUMN "temporary_closure" jsonb;--> statement-breakpoint
-- Businesses already reported temporarily closed (the current operatingStatus claim) carry it from now on.
UPDATE "businesses" b SET "temporary_closure" = c."value"
FROM "claims" c
WHERE c."business_id" = b."id" AND c."property" = 'operatingStatus' AND c."superseded_at" IS NULL AND c."value"->>'status' = 'temporarily_closed';
