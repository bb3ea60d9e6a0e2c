CREATE TABLE "caller_write_positions" (
	"caller" text PRIMARY KEY NOT NULL,
	"wal_position" text NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "caller_write_positions_written_at_idx" ON "caller_write_positions" USING btree ("written_at");