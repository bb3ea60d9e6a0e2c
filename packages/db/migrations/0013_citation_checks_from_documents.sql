-- Citation checks are read from documents and their mentions (services/owner-insights.ts), not stored.
DROP TABLE "citation_checks" CASCADE;