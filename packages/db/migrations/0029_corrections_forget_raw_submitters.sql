-- Submitters are kept as keyed pseudonyms while pending and forgotten once decided
-- (correctionSubmitterOf, correction-decisions.ts). Rows written before held raw "key:" and "ip:"
-- values; the key is not in the database, so they cannot be turned into pseudonyms here: each
-- takes its own id instead, which keeps one supporter per row.
UPDATE "corrections" SET "submitter" = 'decided:' || "id" WHERE "status" <> 'pending';--> statement-breakpoint
UPDATE "corrections" SET "submitter" = 'legacy:' || "id" WHERE "status" = 'pending' AND ("submitter" LIKE 'ip:%' OR "submitter" LIKE 'key:%' OR "submitter" = 'anonymous');
