CREATE TABLE "business_owners" (
	"business_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"method" text NOT NULL,
	"decided_by" text NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "business_owners_business_id_account_id_pk" PRIMARY KEY("business_id","account_id"),
	CONSTRAINT "business_owners_method_check" CHECK ("business_owners"."method" in ('website', 'email', 'review', 'operator'))
);
--> statement-breakpoint
CREATE TABLE "ownership_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"secret_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"evidence" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "ownership_claims_method_check" CHECK ("ownership_claims"."method" in ('website', 'email', 'review')),
	CONSTRAINT "ownership_claims_status_check" CHECK ("ownership_claims"."status" in ('pending', 'verified', 'approved', 'rejected', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "business_owners" ADD CONSTRAINT "business_owners_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_owners" ADD CONSTRAINT "business_owners_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ownership_claims" ADD CONSTRAINT "ownership_claims_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ownership_claims" ADD CONSTRAINT "ownership_claims_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_owners_account_idx" ON "business_owners" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "ownership_claims_business_idx" ON "ownership_claims" USING btree ("business_id");--> statement-breakpoint
CREATE INDEX "ownership_claims_account_idx" ON "ownership_claims" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "ownership_claims_status_idx" ON "ownership_claims" USING btree ("status","created_at");