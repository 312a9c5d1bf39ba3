-- A quick search of an entity's records finds its words through a trigram index of the
-- record's text-like fields, lowered and joined by spaces, as recordTable.ts's searchTextOf
-- writes them (the same expression, or the planner would not use it): measured in
-- bench/README.md.
DO $$
DECLARE
  entity record;
  search_text text;
BEGIN
  FOR entity IN SELECT id, fields FROM entities LOOP
    SELECT 'lower(' || string_agg(format('coalesce(%I, '''')', col), ' || '' '' || ' ORDER BY n) || ')'
      INTO search_text
      FROM jsonb_array_elements(entity.fields) WITH ORDINALITY AS field(f, n),
        LATERAL (SELECT CASE WHEN length(f->>'name') <= 61 THEN 'f_' || (f->>'name')
          ELSE 'f_' || left(f->>'name', 44) || '_' || left(md5(f->>'name'), 16) END AS col) c
      WHERE coalesce(f->>'type', 'text') IN ('text', 'longText', 'select', 'email', 'url');
    IF search_text IS NOT NULL THEN
      EXECUTE format('CREATE INDEX %I ON %I USING gin ((%s) gin_trgm_ops)',
        'records_' || replace(entity.id::text, '-', '') || '_search',
        'records_' || replace(entity.id::text, '-', ''), search_text);
    END IF;
  END LOOP;
END $$;
