CREATE TABLE "registry_records" (
	"source" text NOT NULL,
	"record_id" text NOT NULL,
	"business_id" uuid NOT NULL,
	"name" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "registry_records_source_record_id_pk" PRIMARY KEY("source","record_id"),
	CONSTRAINT "registry_records_business_id_unique" UNIQUE("business_id")
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "inactive_reason" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "record_id" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "recorded_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "registry_records" ADD CONSTRAINT "registry_records_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "registry_records_area_idx" ON "registry_records" USING btree ("source","lat","lng");--> statement-breakpoint
-- Every business taken out of service so far was taken out by an admin.
UPDATE "businesses" SET "inactive_reason" = 'decommissioned' WHERE "status" = 'inactive';
