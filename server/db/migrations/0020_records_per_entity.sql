-- Each entity keeps its records in a table of its own, a typed column per field
-- (server/modules/records/recordTable.ts), so PostgreSQL can sort, filter, index and
-- constrain them by type. Every field so far is text: each entity's table gets a text
-- column per field, named as recordTable.ts's columnOf names it, and its records move
-- there, each field with its sort index. Values of fields the definitions no longer have stay in the records' histories.
DO $$
DECLARE
  entity record;
  records_table text;
  columns text;
  names text;
  vals text;
  field_name text;
BEGIN
  FOR entity IN SELECT id, name, fields FROM entities LOOP
    records_table := 'records_' || replace(entity.id::text, '-', '');
    SELECT string_agg(format('%I text', col), ', ' ORDER BY n),
           string_agg(format('%I', col), ', ' ORDER BY n),
           string_agg(format('fields->>%L', f->>'name'), ', ' ORDER BY n)
      INTO columns, names, vals
      FROM jsonb_array_elements(entity.fields) WITH ORDINALITY AS field(f, n),
        LATERAL (SELECT CASE WHEN length(f->>'name') <= 61 THEN 'f_' || (f->>'name')
          ELSE 'f_' || left(f->>'name', 44) || '_' || left(md5(f->>'name'), 16) END AS col) c;
    EXECUTE format(
      'CREATE TABLE %I (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), '
      'version integer NOT NULL DEFAULT 1, created_at timestamptz NOT NULL DEFAULT now(), '
      'updated_at timestamptz NOT NULL DEFAULT now(), %s)', records_table, columns);
    EXECUTE format('CREATE INDEX %I ON %I (created_at, id)', records_table || '_created', records_table);
    EXECUTE format(
      'INSERT INTO %I (id, version, created_at, updated_at, %s) '
      'SELECT id, version, created_at, updated_at, %s FROM entity_records WHERE entity_name = %L',
      records_table, names, vals, entity.name);
    -- Each field's sort index, as recordTable.ts's sortIndexOf names it.
    FOR field_name IN SELECT f->>'name' FROM jsonb_array_elements(entity.fields) f LOOP
      EXECUTE format('CREATE INDEX %I ON %I (%I, id)',
        records_table || '_' || left(md5(field_name), 12) || '_sort', records_table,
        CASE WHEN length(field_name) <= 61 THEN 'f_' || field_name
          ELSE 'f_' || left(field_name, 44) || '_' || left(md5(field_name), 16) END);
    END LOOP;
  END LOOP;
END $$;--> statement-breakpoint
DROP TABLE "entity_records" CASCADE;--> statement-breakpoint
-- Whether a text reads as a value of a column type as a definition change converts it
-- (trimmed, blank as null): what the change's report asks of each record before it runs.
CREATE FUNCTION record_value_converts(value text, type_name text) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  EXECUTE format('SELECT nullif(btrim(%L), %L)::%s', value, '', type_name);
  RETURN true;
EXCEPTION WHEN data_exception THEN
  RETURN false;
END $$;--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "display_field" text;
