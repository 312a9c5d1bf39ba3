-- A word without three letters or digits in a row (`zq`, `e`, `%`, `a-b`) gives the trigram
-- index nothing to look up, so a rare one read every job (~400 ms at 1M). Each job's letters
-- and pairs of letters of number and description (whitespace left out: a filter word holds
-- none) are now under an index of their own: a word's jobs are among those holding all its
-- pairs (or its one letter). Only the index keeps them (measured in bench/README.md). The
-- function takes ~35 µs a job: its cost says so, or the planner would rather run it on every
-- job than read the index for a word it thinks common.
CREATE FUNCTION job_search_grams(text text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT COST 10000 AS $$
DECLARE
  letters text[] := string_to_array(text, NULL);
  grams text[] := array_remove(letters, ' ');
BEGIN
  -- Repeats are left in: the index keeps each key of a row once.
  FOR i IN 1 .. cardinality(letters) - 1 LOOP
    IF letters[i] <> ' ' AND letters[i + 1] <> ' ' THEN
      grams := grams || (letters[i] || letters[i + 1]);
    END IF;
  END LOOP;
  RETURN grams;
END
$$;
--> statement-breakpoint
-- What a filter word asks of job_search_grams: its pairs in lower case, or its one letter.
CREATE FUNCTION job_search_word_grams(word text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT CASE WHEN length(w) = 1 THEN array[w]
    ELSE array(SELECT substr(w, i, 2) FROM generate_series(1, length(w) - 1) AS i) END
  FROM lower(word) AS w
$$;
--> statement-breakpoint
CREATE INDEX "jobs_indexed_text_grams_index" ON "jobs" USING gin (job_search_grams("indexed_text"));
--> statement-breakpoint
-- A job is tested on number and description (indexed_text), and on status and conclusion
-- only when a filter's word names one of theirs (jobs.service.ts): the copy of all four
-- made room for the index above within the size the search may take.
ALTER TABLE "jobs" DROP COLUMN "search";
