ALTER TABLE "entities" ADD COLUMN "policies" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Every entity's records remember who added them (policies compare it with $me), indexed
-- for a policy's "records I created". Records added before stay without one.
DO $$
DECLARE
  records_table text;
BEGIN
  FOR records_table IN SELECT 'records_' || replace(id::text, '-', '') FROM entities LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN created_by uuid', records_table);
    EXECUTE format('CREATE INDEX %I ON %I (created_by, id)', records_table || '_creator', records_table);
  END LOOP;
END $$;
