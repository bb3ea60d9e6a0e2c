-- Keys the service makes for itself on first use, one per purpose (services/shared/service-secrets.ts):
-- the partner feed's cursor signing key first. Every instance on the database reads the same row.
CREATE TABLE "service_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"secret" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
