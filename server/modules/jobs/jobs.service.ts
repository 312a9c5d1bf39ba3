import { eq, sql } from 'drizzle-orm';
import type { Job, JobList, JobListQuery } from '@common/schemas/jobs';
import {
  type Db,
  type Session,
  namedQuery,
  onOneConnection,
  perDatabase,
  withSession,
} from '../../db/client';
import { jobDetails, jobs } from '../../db/schema/jobs';
import { notFound } from '../../lib/errors';
import { type GeneratedJob, generateJob } from './jobGenerator';
import { ResolvedWords, type Word } from './resolvedWords';

/*
 * The job list is searched where it lives: in PostgreSQL, through the terms, sort keys and
 * postings that triggers keep (0015_job_search.sql). A filter is split on whitespace into
 * words; a job matches when every word is a case-insensitive substring of its number, status,
 * conclusion or description (MUI's quick-filter rule). One word (the one with the fewest
 * candidates) brings the candidates: the jobs of the terms that contain it, and the jobs
 * whose number does, each term's in the sort order straight from an index; the other words
 * are checked on the candidates' rows.
 */

type SortColumn = JobListQuery['sortColumn'];
type SortOrder = JobListQuery['sortOrder'];

/** Each sort column's integer key (job_keys, job_postings): its order, ties by number. */
const SORT_KEYS: Record<SortColumn, string> = {
  friendlyNumber: 'number_key',
  status: 'status_key',
  conclusion: 'conclusion_key',
  description: 'description_key',
};

/** Totals are exact at least up to here; beyond, they may be estimates (flagged). */
export const EXACT_TOTAL_UP_TO = 10_000;
/** A filter with at most this many candidates is counted exactly; more are sampled. */
const COUNTED_UP_TO = 20_000;
/** How many candidates an estimate samples. */
const SAMPLED_CANDIDATES = 20_000;

const JOB_JSON = `json_build_object('_id', j.id, 'friendlyNumber', j.friendly_number,
  'status', j.status, 'conclusion', j.conclusion, 'description', j.description)`;

/** The search's generation (0016_job_search_generation.sql), as a column of a statement. */
const GENERATION = `(select generation from job_totals)::float8 as generation`;

/** Whether a job row (`j`) holds every word of the array parameter `$n`. */
const holdsEvery = (n: number) => `not exists (
  select from unnest($${n}::text[]) as other(word)
  where not (lower(j.friendly_number) like job_search_pattern(other.word)
    or lower(j.status) like job_search_pattern(other.word)
    or lower(j.conclusion) like job_search_pattern(other.word)
    or lower(j.description) like job_search_pattern(other.word)))`;

/**
 * The jobs whose number holds the word `$word`, when `$some` (some do), as their `key`: at
 * the start only when `$prefix` (an index-only range scan of job_keys' number index, which
 * carries every key), else anywhere (the trigram index on jobs, then each job's key).
 * Materialized: otherwise the planner may walk a sort order's whole index looking for them.
 */
const numbers = (
  word: string,
  some: string,
  prefix: string,
  key: string,
) => `numbers as materialized (
  select k.${key} as key from job_keys as k
  where ${some} and ${prefix} and k.number ~>=~ lower(${word})
    and k.number ~<~ job_search_prefix_end(${word})
  union all
  select (select k.${key} from job_keys as k where k.job_id = j.id) from jobs as j
  where ${some} and not ${prefix} and lower(j.friendly_number) like job_search_pattern(${word})
)`;

/**
 * The candidates of one word (`$2`) in a sort order: the first `$3` keys of each of its
 * terms (`$1`) and of the jobs whose number holds it. The first N of all its matches are among
 * them whenever N ≤ `$3`.
 */
const candidatesOf = (key: string, direction: SortOrder) => `${numbers('$2', '$4', '$7', key)},
candidates as (
  select p.key from unnest($1::int[]) as t(id)
  cross join lateral (
    select ${key} as key from job_postings where term = t.id order by ${key} ${direction} limit $3
  ) as p
  union
  (select key from numbers order by key ${direction} limit $3)
)`;

/** The SQL of each kind of page query, by kind, column and direction: built once. */
const statements = new Map<string, string>();
function statement(
  kind: 'all' | 'term' | 'word' | 'words',
  column: SortColumn,
  direction: SortOrder,
) {
  const name = `jobs_${kind}_${column}_${direction}`;
  let text = statements.get(name);
  if (text) return { name, text };
  const key = SORT_KEYS[column];
  if (kind === 'all') {
    // $1 offset, $2 limit.
    text = `
      select coalesce(json_agg(${JOB_JSON} order by page.key ${direction}), '[]') as jobs,
        (select jobs from job_totals)::float8 as found
      from (select ${key} as key, job_id from job_keys order by ${key} ${direction}
            offset $1 limit $2) as page
      join jobs as j on j.id = page.job_id`;
  } else if (kind === 'term') {
    // $1 the term, $2 offset, $3 limit: its postings in order are all its matches.
    text = `
      select coalesce(json_agg(${JOB_JSON} order by page.key ${direction}), '[]') as jobs,
        ${GENERATION}
      from (select ${key} as key from job_postings where term = $1 order by ${key} ${direction}
            offset $2 limit $3) as page
      join job_keys as k on k.${key} = page.key
      join jobs as j on j.id = k.job_id`;
  } else if (kind === 'word') {
    // $5 offset, $6 limit.
    text = `
      with ${candidatesOf(key, direction)},
      page as (select key from candidates order by key ${direction} offset $5 limit $6)
      select coalesce(json_agg(${JOB_JSON} order by page.key ${direction}), '[]') as jobs,
        (select count(*) from candidates)::float8 as found, ${GENERATION}
      from page
      join job_keys as k on k.${key} = page.key
      join jobs as j on j.id = k.job_id`;
  } else {
    // $5 offset, $6 limit, $8 the other words.
    text = `
      with ${candidatesOf(key, direction)},
      matches as materialized (
        select c.key, j.* from candidates as c
        join job_keys as k on k.${key} = c.key
        join jobs as j on j.id = k.job_id
        where ${holdsEvery(8)}
      )
      select
        (select coalesce(json_agg(${JOB_JSON} order by j.key ${direction}), '[]')
         from (select * from matches order by key ${direction} offset $5 limit $6) as j) as jobs,
        (select count(*) from matches)::float8 as found, ${GENERATION}`;
  }
  statements.set(name, text);
  return { name, text };
}

/**
 * One word's terms and numbers. One word a statement: with an array of words, the planner's
 * guess at its length made the cached (generic) plan look dearer than planning each time.
 */
const resolveWord = async (db: Session, word: string) =>
  (
    await namedQuery<Word>(
      db,
      'jobs_word',
      `select $1::text as word, coalesce(t.terms, '{}') as terms, coalesce(t.postings, 0) as postings,
         coalesce(t.largest, 0) as largest, n.prefix_only as "prefixOnly",
         case
           when n.prefix_only then (
             select count(*) from job_keys where number ~>=~ lower($1)
               and number ~<~ job_search_prefix_end($1))
           -- The trigram index serves 3 characters or more; fewer would need a scan.
           when length($1) >= 3 then (
             select count(*) from jobs where lower(friendly_number) like job_search_pattern($1))
         end::float8 as numbers, ${GENERATION}
       from (
         select array_agg(id) as terms, sum(job_count)::float8 as postings,
           max(job_count)::float8 as largest
         from job_terms where term like job_search_pattern($1)
       ) as t
       cross join (
         select not exists (
           select from job_number_characters
           where "character" = left(lower($1), 1) and inner_count > 0
         ) as prefix_only
       ) as n`,
      [word],
    )
  )[0]!;

const countNumbers = async (db: Session, word: string) =>
  (
    await namedQuery<{ n: number }>(
      db,
      'jobs_count_numbers',
      `select count(*)::float8 as n from jobs where lower(friendly_number) like job_search_pattern($1)`,
      [word],
    )
  )[0]!.n;

/** The lead's terms that do not hold every other word themselves. */
const termsNotHolding = async (db: Session, terms: number[], others: string[]) =>
  (
    await namedQuery<{ terms: number[] }>(
      db,
      'jobs_terms_not_holding',
      `select coalesce(array_agg(id), '{}') as terms from job_terms
       where id = any($1::int[]) and exists (
         select from unnest($2::text[]) as other(word)
         where not (term like job_search_pattern(other.word)))`,
      [terms, others],
    )
  )[0]!.terms;

type Page = { jobs: JobList['jobs']; found: number; generation: number };

/**
 * A page of jobs (list fields only) matching the filter, in a stable order (ties broken
 * by the unique friendly number), with the total. Totals are exact up to
 * EXACT_TOTAL_UP_TO matches, and beyond it whenever that is cheap; otherwise estimated from
 * a sample and flagged. A page past the last answers the last page, and says so in `page`.
 */
export async function listJobs(db: Db, query: JobListQuery): Promise<JobList> {
  const words = [...new Set(query.filter.split(/\s+/u).filter(Boolean))];
  const { jobs, totalJobs, page, totalIsEstimate } = await withSession(db, (session) =>
    words.length
      ? listMatching(session, query, words, resolvedWordsOf(db))
      : listAll(session, query),
  );
  return { jobs, totalJobs, page, totalIsEstimate: totalIsEstimate ?? false };
}

/** A page, and the search's generation when a statement that read it said. */
type Listed = Omit<JobList, 'totalIsEstimate'> & { totalIsEstimate?: boolean; generation?: number };

/** Each database's resolved filter words. */
const resolvedWordsOf = perDatabase(() => new ResolvedWords());

async function listAll(db: Session, query: JobListQuery): Promise<Listed> {
  const { name, text } = statement('all', query.sortColumn, query.sortOrder);
  const read = async (page: number) =>
    (await namedQuery<Page>(db, name, text, [(page - 1) * query.perPage, query.perPage]))[0]!;
  let page = query.page;
  let answer = await read(page);
  if (!answer.jobs.length && page > 1 && answer.found) {
    page = lastPage(answer.found, query.perPage);
    answer = await read(page);
  }
  return { jobs: answer.jobs, totalJobs: answer.found, page };
}

const lastPage = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

/**
 * A page of the jobs that hold every word. Words resolved before are used when all are
 * kept, and trusted when the page read with them reports the generation they were resolved
 * at; otherwise each word is resolved anew (and kept) and the page read with them, on one
 * connection: the page then waits for the pool once, not twice.
 */
async function listMatching(
  db: Session,
  query: JobListQuery,
  words: string[],
  known: ResolvedWords,
): Promise<Listed> {
  const kept = words.map((word) => known.get(word));
  if (kept.every((word): word is Word => word !== undefined)) {
    const listed = await listResolved(db, query, kept);
    known.saw(listed.generation);
    if (listed.generation === kept[0]!.generation) return listed;
  }
  return onOneConnection(db, async (connection) => {
    const resolved: Word[] = [];
    for (const word of words) resolved.push(await resolveWord(connection, word));
    for (const word of resolved) known.keep(word);
    const listed = await listResolved(connection, query, resolved);
    known.saw(listed.generation);
    return listed;
  });
}

/** A page of the jobs that hold every one of the `resolved` words. */
async function listResolved(db: Session, query: JobListQuery, resolved: Word[]): Promise<Listed> {
  if (resolved.some((w) => w.postings === 0 && w.numbers === 0))
    return { jobs: [], totalJobs: 0, page: 1 };
  // The word with the fewest candidates leads; a short word's numbers are uncounted, so
  // it leads only when every word is short, and then its numbers are counted.
  const size = (w: Word) => w.postings + (w.numbers ?? Number.POSITIVE_INFINITY);
  const lead = resolved.reduce((a, b) =>
    size(b) < size(a) || (size(b) === size(a) && b.postings < a.postings) ? b : a,
  );
  const leadNumbers = lead.numbers ?? (await countNumbers(db, lead.word));
  if (lead.postings === 0 && leadNumbers === 0) return { jobs: [], totalJobs: 0, page: 1 };
  let others = resolved.filter((w) => w !== lead).map((w) => w.word);
  // `in progress`: when each of the lead's terms holds the other words too (and no number
  // is among its matches), its candidates all match, as for one word.
  if (others.length && leadNumbers === 0 && !(await termsNotHolding(db, lead.terms, others)).length)
    others = [];
  if (!others.length && lead.terms.length === 1 && leadNumbers === 0)
    return listTerm(db, query, lead.terms[0]!, lead.postings);
  const candidates = lead.postings + leadNumbers;
  // Every candidate is read once a term (or the numbers) has no more than `depth`.
  const complete = (depth: number) => lead.largest <= depth && leadNumbers <= depth;
  const everything = Math.max(lead.largest, leadNumbers);

  const kind = others.length ? 'words' : 'word';
  const { name, text } = statement(kind, query.sortColumn, query.sortOrder);
  const read = (page: number, depth: number) =>
    namedQuery<Page>(db, name, text, [
      lead.terms,
      lead.word,
      depth,
      leadNumbers > 0,
      (page - 1) * query.perPage,
      query.perPage,
      lead.prefixOnly,
      ...(others.length ? [others] : []),
    ]).then((rows) => rows[0]!);

  let page = query.page;
  const wanted = page * query.perPage;
  // Other words may turn candidates down: read deeper until the page is full or all are read.
  let depth = others.length ? wanted * 4 : wanted;
  let answer = await read(page, depth);
  while (answer.found < wanted && !complete(depth)) {
    depth = Math.min(depth * 8, everything);
    answer = await read(page, depth);
  }
  // The page last read, with a total.
  const listed = (totalJobs: number): Listed => ({
    jobs: answer.jobs,
    totalJobs,
    page,
    generation: answer.generation,
  });
  if (complete(depth)) {
    // Every match was among the candidates: the total is exact.
    if (!answer.jobs.length && page > 1 && answer.found) {
      page = lastPage(answer.found, query.perPage);
      answer = await read(page, depth);
    }
    return listed(answer.found);
  }
  // The numbers alone and no other word: their count is the total.
  if (!others.length && lead.terms.length === 0) return listed(leadNumbers);
  const total =
    candidates <= COUNTED_UP_TO ? undefined : await estimateMatches(db, lead, leadNumbers, others);
  // Near the line where totals must be exact, they are counted.
  if (total === undefined || total <= 2 * EXACT_TOTAL_UP_TO)
    return listed((await read(page, everything)).found);
  return { ...listed(total), totalIsEstimate: true };
}

/** A page of one term's jobs, which are all the matches: `jobs` of them. */
async function listTerm(
  db: Session,
  query: JobListQuery,
  term: number,
  jobs: number,
): Promise<Listed> {
  const { name, text } = statement('term', query.sortColumn, query.sortOrder);
  const page = Math.min(query.page, lastPage(jobs, query.perPage));
  const [answer] = await namedQuery<Omit<Page, 'found'>>(db, name, text, [
    term,
    (page - 1) * query.perPage,
    query.perPage,
  ]);
  return { jobs: answer!.jobs, totalJobs: jobs, page, generation: answer!.generation };
}

/**
 * Estimates how many jobs match from a sample: the matches among the jobs in a window of
 * the number order sized to hold about SAMPLED_CANDIDATES candidates, scaled up to all
 * jobs. Keys are spread evenly in number order (a rebuild spaces them alike, and new jobs
 * take the middle of a gap), so a window's share of the key range is its share of the jobs.
 */
async function estimateMatches(
  db: Session,
  lead: Word,
  leadNumbers: number,
  others: string[],
): Promise<number> {
  const [range] = await namedQuery<{ low: string; high: string }>(
    db,
    'jobs_key_range',
    `select min(number_key)::text as low, max(number_key)::text as high from job_keys`,
    [],
  );
  const low = BigInt(range!.low);
  const high = BigInt(range!.high);
  const candidates = lead.postings + leadNumbers;
  const share = Math.min(1, SAMPLED_CANDIDATES / candidates);
  const end = low + BigInt(Math.ceil(Number(high - low) * share));
  // Without other words every candidate matches: counting the window's distinct keys reads
  // only the postings' index, not the jobs.
  const filtered = others.length > 0;
  const [sample] = await namedQuery<{ matches: number }>(
    db,
    filtered ? 'jobs_sample_words' : 'jobs_sample_word',
    `with ${numbers('$2', '$4', '$5', 'number_key')},
     candidates as (
       select p.number_key from unnest($1::int[]) as t(id)
       cross join lateral (
         select number_key from job_postings where term = t.id and number_key <= $3
       ) as p
       union
       select key from numbers where key <= $3
     )
     select count(*)::float8 as matches from candidates as c
     ${
       filtered
         ? `join job_keys as k on k.number_key = c.number_key
            join jobs as j on j.id = k.job_id
            where ${holdsEvery(6)}`
         : ''
     }`,
    [
      lead.terms,
      lead.word,
      end.toString(),
      leadNumbers > 0,
      lead.prefixOnly,
      ...(filtered ? [others] : []),
    ],
  );
  const sampled = high === low ? 1 : Number(end - low) / Number(high - low);
  return Math.round(sample!.matches / Math.min(1, sampled));
}

const jobQuery = perDatabase((db) =>
  db
    .select()
    .from(jobs)
    .leftJoin(jobDetails, eq(jobDetails.jobId, jobs.id))
    .where(eq(jobs.id, sql.placeholder('id')))
    .prepare('job'),
);

/** One job with its samples. @throws 404. */
export async function getJob(db: Db, id: string): Promise<Job> {
  const [row] = await jobQuery(db).execute({ id });
  if (!row) throw notFound('Job');
  const { id: _id, friendlyNumber, status, conclusion, description } = row.jobs;
  return {
    _id,
    friendlyNumber,
    status,
    conclusion,
    description,
    samples: row.job_details?.samples ?? [],
  };
}

/** Whether any job is stored: one index probe, whatever the job count (the seed asks it). */
export async function hasJobs(db: Pick<Db, 'select'>): Promise<boolean> {
  const [row] = await db.select({ id: jobs.id }).from(jobs).limit(1);
  return row !== undefined;
}

/**
 * The highest job position loaded so far (0 when there are none), read from the generated
 * numbers (`J-` and digits). Compared as numbers: past 9,999,999 a number has one digit
 * more, and as text `J-10000000` sorts before `J-9999999`. A scan: loaders call it once.
 */
export async function lastJobNumber(db: Pick<Db, 'select'>): Promise<number> {
  const [row] = await db
    .select({
      max: sql<string | null>`max(substr(${jobs.friendlyNumber}, 3)::bigint)`,
    })
    .from(jobs)
    .where(sql`${jobs.friendlyNumber} ~ '^J-[0-9]{1,15}$'`);
  return Number(row?.max ?? 0);
}

/**
 * Inserts generated jobs, list rows and details, one statement each: the batch travels as
 * one JSON parameter that jsonb_to_recordset spreads into rows, so thousands of jobs cost
 * two round trips, the same on PGlite and PostgreSQL. The search's triggers take them in.
 */
export async function insertJobs(db: Pick<Db, 'execute'>, batch: GeneratedJob[]): Promise<void> {
  const rows = batch.map((job) => ({ id: crypto.randomUUID(), ...job }));
  const list = JSON.stringify(
    rows.map(({ id, friendlyNumber, status, conclusion, description }) => ({
      id,
      friendly_number: friendlyNumber,
      status,
      conclusion,
      description,
    })),
  );
  await db.execute(sql`
    insert into jobs (id, friendly_number, status, conclusion, description)
    select id, friendly_number, status, conclusion, description
    from jsonb_to_recordset(${list}::jsonb)
      as j(id uuid, friendly_number text, status text, conclusion text, description text)`);
  const details = JSON.stringify(rows.map(({ id, samples }) => ({ job_id: id, samples })));
  await db.execute(sql`
    insert into job_details (job_id, samples)
    select job_id, samples from jsonb_to_recordset(${details}::jsonb) as d(job_id uuid, samples jsonb)`);
}

/**
 * Generates and inserts jobs `from`..`to` (1-based positions) in batches, reporting
 * progress, in one transaction: the search's triggers stand aside for it and the search is
 * rebuilt in one pass at the end (row by row costs ~0.8 ms a job). Other sessions see the
 * jobs, searched, when it commits; writers of jobs wait for it.
 */
export async function loadJobs(
  db: Pick<Db, 'transaction'>,
  from: number,
  to: number,
  onProgress: (done: number) => void = () => {},
  batchSize = 2000,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('job_search.bulk_load', 'on', true)`);
    for (let start = from; start <= to; start += batchSize) {
      const end = Math.min(to, start + batchSize - 1);
      const batch = Array.from({ length: end - start + 1 }, (_, i) => generateJob(start + i));
      await insertJobs(tx, batch);
      onProgress(end - from + 1);
    }
    await tx.execute(sql`select job_search_rebuild()`);
    await tx.execute(sql`select set_config('job_search.bulk_load', 'off', true)`);
    await tx.execute(sql`analyze jobs`);
  });
}

/**
 * Marks the freshly built search's pages all-visible (VACUUM), so its index-only scans
 * stop visiting the table: after a large load, outside any transaction.
 */
export async function settleJobSearch(db: Pick<Db, 'execute'>): Promise<void> {
  await db.execute(sql`vacuum analyze job_keys, job_postings, job_terms`);
}
