-- One business may have several records of a source: the same shop drawn as a node and as its
-- building is one listing, the building's way kept as a second id (same_as names the record that
-- stands for the business). business_id is no longer unique, but still looked up: a plain index.
ALTER TABLE "registry_records" DROP CONSTRAINT "registry_records_business_id_unique";--> statement-breakpoint
ALTER TABLE "registry_records" ADD COLUMN "same_as" text;--> statement-breakpoint
CREATE INDEX "registry_records_business_idx" ON "registry_records" USING btree ("business_id");