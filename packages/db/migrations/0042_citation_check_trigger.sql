ALTER TABLE "citation_checks" DROP CONSTRAINT "citation_checks_once_per_period";--> statement-breakpoint
ALTER TABLE "citation_checks" ADD COLUMN "trigger" text DEFAULT 'schedule' NOT NULL;--> statement-breakpoint
ALTER TABLE "citation_checks" ADD CONSTRAINT "citation_checks_once_per_period" UNIQUE("engine","model","category_slug","city_id","query","period","trigger");--> statement-breakpoint
ALTER TABLE "citation_checks" ADD CONSTRAINT "citation_checks_trigger" CHECK ("citation_checks"."trigger" in ('schedule', 'owner'));