-- An update takes into the dictionary (0027) only the jobs whose description or number it
-- changed: an instrument setting the status of thousands of jobs split each description
-- again for nothing. A job is skipped when a job of the same id had the same description
-- and number before the statement, whose words are then in the dictionary already.
CREATE OR REPLACE FUNCTION job_words_follow_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  written text := CASE TG_OP WHEN 'UPDATE' THEN
    '(SELECT * FROM new_jobs AS n WHERE NOT EXISTS (SELECT FROM old_jobs AS o
       WHERE o.id = n.id AND o.description = n.description
         AND o.friendly_number = n.friendly_number))'
    ELSE 'new_jobs' END;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM job_words;
    DELETE FROM job_long_words;
    DELETE FROM job_number_characters;
  ELSE
    -- In order, so that two writers adding the same new words cannot wait on each other.
    EXECUTE format('INSERT INTO job_words
      SELECT DISTINCT unnest(job_description_words(description)) FROM %s AS j ORDER BY 1
      ON CONFLICT DO NOTHING', written);
    EXECUTE format('INSERT INTO job_long_words
      SELECT DISTINCT md5(w), w FROM %s AS j, job_description_long_words(description) AS w
      ORDER BY 1 ON CONFLICT DO NOTHING', written);
    EXECUTE format('INSERT INTO job_number_characters
      SELECT DISTINCT unnest(string_to_array(lower(friendly_number), NULL)) FROM %s AS j
      ORDER BY 1 ON CONFLICT DO NOTHING', written);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER job_words_updated ON jobs;
--> statement-breakpoint
CREATE TRIGGER job_words_updated AFTER UPDATE ON jobs
  REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_words_follow_changes();
