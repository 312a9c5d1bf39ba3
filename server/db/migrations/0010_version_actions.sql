-- Versions say what made them. Earlier ones: the first of each document was its create, the rest updates.
ALTER TABLE "versions" ADD COLUMN "action" text NOT NULL DEFAULT 'update';--> statement-breakpoint
UPDATE "versions" SET "action" = 'create' WHERE "id" IN (
  SELECT DISTINCT ON ("resource", "document_id") "id" FROM "versions"
  ORDER BY "resource", "document_id", "version_date", "id"
);--> statement-breakpoint
ALTER TABLE "versions" ALTER COLUMN "action" DROP DEFAULT;
