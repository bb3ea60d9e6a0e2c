CREATE TABLE "corrections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"property" text NOT NULL,
	"value" jsonb NOT NULL,
	"proposal_key" text NOT NULL,
	"evidence" text NOT NULL,
	"observed_at" timestamp with time zone,
	"submitter" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"claim_id" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "corrections_status_check" CHECK ("corrections"."status" in ('pending', 'accepted', 'rejected', 'superseded'))
);
--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "corrections_proposal_idx" ON "corrections" USING btree ("proposal_key","status");--> statement-breakpoint
CREATE INDEX "corrections_business_idx" ON "corrections" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "corrections_pending_idx" ON "corrections" USING btree ("created_at","id") WHERE "corrections"."status" = 'pending';