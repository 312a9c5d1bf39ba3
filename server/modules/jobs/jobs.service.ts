import { eq, sql } from 'drizzle-orm';
import type { Job, JobList, JobListQuery } from '@common/schemas/jobs';
import {
  type Db,
  type Session,
  namedQuery,
  perDatabase,
  queryRows,
  withSearchSession,
  withSession,
} from '../../db/client';
import { SAMPLED_HASHES_BELOW, jobDetails, jobs } from '../../db/schema/jobs';
import { notFound } from '../../lib/errors';
import { GenerationCache, SharedWork } from './generationCache';
import { type GeneratedJob, generateJob } from './jobGenerator';

/*
 * The job list is searched where it lives, in PostgreSQL, with its own structures
 * (0017_job_search_trigrams.sql to 0019_job_search_short_words.sql). A filter is split on
 * whitespace into words; a job matches when every word is a case-insensitive substring of
 * its number, status, conclusion or description (MUI's quick-filter rule). Number and
 * description, in lower case, are under a trigram index, and, for words too short for
 * trigrams, an index of their letters and pairs of letters; status and conclusion are a
 * handful of values each, so a word names the values that hold it, whose jobs the sort
 * indexes find. How a page is found follows how many jobs match, whatever the data:
 * - few jobs in all: all its matches are read, with their exact total, whose share chooses
 *   one of the ways below for the filter's other pages;
 * - a common filter (`e`, `the`): the sort order's index is walked and each job tested; the
 *   first matches come first, so a page costs about (its end) / (the share that matches) jobs
 *   tested (within a budget: matches bunched far along the order go the other way);
 * - a rare one (`xylophone`, `J-00012`): the indexes find its jobs, which are sorted; about
 *   (the share that matches) × (all jobs) rows, and the exact total comes with them;
 * - sorted by status or conclusion when its matches are dense in the groups of some values
 *   that hold a word (`completed` by status, `in progress pass` by conclusion): those groups
 *   are walked in order, the other groups' matches found through the indexes, where the
 *   words that named those values are rare.
 * The share is measured on a random sample of jobs each server keeps (a window of the hashes
 * of their ids, taken again every minute), and the total of a filter too common to count
 * cheaply on a larger sample of its own: an estimate, flagged, its error about
 * 1/√(hits in the sample). Each server keeps the totals and pages it found while
 * the jobs stay as they were (their generation): a filter asked again costs its page alone,
 * a page asked again one statement.
 */

type SortColumn = JobListQuery['sortColumn'];
type SortOrder = JobListQuery['sortOrder'];

/** Totals are exact at least up to here; beyond, they may be estimates (flagged). */
export const EXACT_TOTAL_UP_TO = 10_000;
/**
 * The jobs of the sample that tells a filter not seen before common from rare: each server
 * keeps one of its own (serverSample), of this size whatever the jobs.
 */
const FIRST_SAMPLE = 2_000;
/** How long a server's sample is kept (unless the jobs grow or shrink by a tenth first). */
const SERVER_SAMPLE_KEPT_MS = 60_000;
/**
 * Hits an estimate rests on: its relative error is then about 1/√5000, 1.4 % (one standard
 * error; beyond 5 % about once in 2,000 estimates).
 */
const HITS_FOR_ESTIMATE = 5_000;
/** Each sort's ORDER BY (ties by the unique number): one of the jobs' sort indexes serves it. */
const orderBy = (column: SortColumn, direction: SortOrder) =>
  column === 'friendlyNumber'
    ? `j.friendly_number ${direction}`
    : `j.${column} ${direction}, j.friendly_number ${direction}`;

const JOB_JSON = `json_build_object('_id', j.id, 'friendlyNumber', j.friendly_number,
  'status', j.status, 'conclusion', j.conclusion, 'description', j.description)`;

/** Number and description in lower case: what the trigram and grams indexes hold. */
const INDEXED_TEXT = 'j.indexed_text';

/**
 * Each word of `words` (a text[] in SQL) as a LIKE pattern, in lower case by the database's
 * own rules (job_search_pattern, 0015).
 */
const patterns = (words: string) =>
  `array(select job_search_pattern(word) from unnest(${words}::text[]) as word)`;

/**
 * How a job is tested for a filter's words, by what they name. Words that name no status or
 * conclusion (`$1`, all of them) are looked for in the job's number and description. Each of
 * the first VALUE_WORDS that name some: in those, or among the values it names (three
 * parameters from `first`: the word, its statuses, its conclusions). Any others, and every
 * word when the values are too many to name (MAX_VALUES): in all four fields, one space
 * apart (a parameter): a word holds no whitespace, so it never spans two fields. Building
 * that text for each job costs more than the test (`you ce` by conclusion on prose: 110 ms
 * with it for every word that names a value, 71 ms without).
 */
type Test = { valueWords: number; rest: boolean };
const VALUE_WORDS = 3;
const testKey = ({ valueWords, rest }: Test) => `${valueWords}${rest ? 'r' : ''}`;
const holdsEvery = ({ valueWords, rest }: Test, first: number) => {
  const conditions = [`${INDEXED_TEXT} like all (${patterns('$1')})`];
  for (let at = first; at < first + 3 * valueWords; at += 3)
    conditions.push(`(strpos(${INDEXED_TEXT}, (select lower($${at}::text))) > 0
      or j.status = any($${at + 1}::text[]) or j.conclusion = any($${at + 2}::text[]))`);
  const fields = `(${INDEXED_TEXT} || ' ' || lower(j.status) || ' ' || lower(j.conclusion))`;
  if (rest) conditions.push(`${fields} like all (${patterns(`$${first + 3 * valueWords}`)})`);
  return conditions.join(' and ');
};

/** The most words a statement hands the indexes (the others are tested on its rows). */
const INDEXED_WORDS = 3;
/**
 * Status and conclusion are searched as sets of values while each has at most this many
 * (written by any system, they could be anything): beyond, no index serves a word, and a
 * filter the walk does not answer reads every job.
 */
const MAX_VALUES = 1_000;
/**
 * A filter word held by at most this many words of the dictionary is looked up as them
 * (`w`, indexedConditions); held by more, through the trigram index.
 */
const MAX_EXPANDED = 200;
/** The most jobs a word is looked up for through the words index (lookedUp). */
const WHOLE_WORD_JOBS = 50_000;

/** The sort columns of a handful of values, each a group of the sort order. */
type GroupColumn = 'status' | 'conclusion';

/** The SQL of each statement, by name: built once. */
const statements = new Map<string, string>();
function statement(name: string, build: () => string) {
  let text = statements.get(name);
  if (text === undefined) statements.set(name, (text = build()));
  return { name, text };
}

/** A page of all jobs: `$1` offset, `$2` limit. */
const allStatement = (column: SortColumn, direction: SortOrder) =>
  statement(`jobs_all_${column}_${direction}`, () => {
    const order = orderBy(column, direction);
    return `
      select coalesce(json_agg(${JOB_JSON} order by ${order}), '[]') as jobs,
        (select jobs from job_totals)::float8 as total
      from (select * from jobs as j order by ${order} offset $1 limit $2) as j`;
  });

/**
 * A page of the jobs that hold every word, walking the sort order's index and testing each
 * job: `$1` the words that name no value, `$2` offset, `$3` limit, `$4` the most jobs to
 * test, `$5`… the test's others (holdsEvery). The walk stops at the page's last match, or at
 * its budget: matches may be bunched far along the order
 * (`pass` sorted by conclusion comes after every `Fail`), and a page short of its limit
 * sends the caller to the indexes. `offset 0` fences the walk in: PostgreSQL's guess
 * at how many jobs a pattern matches would otherwise have it read and sort them all.
 */
const walkStatement = (column: SortColumn, direction: SortOrder, test: Test) =>
  statement(`jobs_walk_${column}_${direction}_${testKey(test)}`, () => {
    const order = orderBy(column, direction);
    return `
      select coalesce(json_agg(${JOB_JSON} order by ${order}), '[]') as jobs
      from (
        select * from (
          select * from (select * from jobs as j order by ${order} offset 0) as j
          order by ${order} limit $4
        ) as j
        where ${holdsEvery(test, 5)} order by ${order} offset $2 limit $3
      ) as j`;
  });

/**
 * Conditions the indexes can serve, for the words they are given, from parameter `$first`
 * on. `shape` has a letter per word: `w`, for a word in no job's number, one of the
 * description's words that hold it (the parameter: those of the dictionary, EXPANSIONS)
 * through the index of each job's words, exactly; `t`, the word in the number or
 * description through the trigram index, whose candidates are rechecked; `g`, the same
 * through the index of each job's letters and pairs of letters, for a word with no three
 * letters or digits in a row (`zq`, `e`, `%`): its pairs (or its one letter) are in the
 * job's. In capitals, a word that also names some statuses or conclusions: or one of
 * those (the sort indexes; two more parameters). The values go in as parameters, not as a
 * subquery, so that the planner sees how few jobs they name.
 */
function indexedConditions(shape: string, first: number) {
  let at = first;
  const conditions = [...shape].map((kind) => {
    const word = {
      w: `job_description_words(j.description) && $${at}::text[]`,
      t: `${INDEXED_TEXT} like job_search_pattern($${at})`,
      g: `job_search_grams(${INDEXED_TEXT}) @> job_search_word_grams($${at})`,
    }[kind.toLowerCase()];
    at++;
    if (kind === kind.toLowerCase()) return word;
    const status = `j.status = any($${at++}::text[])`;
    return `(${word} or ${status} or j.conclusion = any($${at++}::text[]))`;
  });
  return { conditions, next: at };
}

/** The indexes' conditions from `$first` (indexedConditions), then the test's (holdsEvery). */
function conditionsFrom(shape: string, test: Test, first: number) {
  const { conditions, next } = indexedConditions(shape, first);
  return [...conditions, holdsEvery(test, next)].join(' and ');
}

/**
 * How many jobs hold every word, through the indexes (`$2`…) when they can serve (the test's
 * parameters: `$1` and after the indexes').
 */
const countStatement = (shape: string, test: Test) =>
  statement(
    `jobs_count_matches_${shape}_${testKey(test)}`,
    () => `select count(*)::float8 as total from jobs as j where ${conditionsFrom(shape, test, 2)}`,
  );

/**
 * What sorting the matches reads of each, beside its id: only the sort keys, so that tens of
 * thousands of them are kept in memory (whole rows were 15 MB for `odi`, 60,000 matches,
 * written to disk and read back); the page's jobs are read again by id.
 */
const sortKeys = (column: SortColumn) =>
  column === 'friendlyNumber' ? 'j.id, j.friendly_number' : `j.id, j.${column}, j.friendly_number`;

/**
 * Every job that holds every word (the test's parameters: `$1` and after the indexes'), found
 * through the indexes when they can serve (`$4`…: see indexedConditions), counted, and a
 * page of them sorted: `$2` offset, `$3` limit, or the last page's offset when `$2` is past
 * it (so a page past the last costs no second reading). Materialized, so the planner cannot
 * walk a sort index instead.
 */
const matchesStatement = (column: SortColumn, direction: SortOrder, shape: string, test: Test) =>
  statement(`jobs_matches_${column}_${direction}_${shape}_${testKey(test)}`, () => {
    const order = orderBy(column, direction);
    return `
      with matches as materialized (
        select ${sortKeys(column)} from jobs as j where ${conditionsFrom(shape, test, 4)}
      ),
      counted as (select count(*) as total from matches)
      select
        (select coalesce(json_agg(${JOB_JSON} order by ${order}), '[]')
         from (
           select * from matches as j order by ${order}
           offset least($2::int8,
             greatest((select total from counted) - 1, 0) / $3::int8 * $3::int8)
           limit $3
         ) as page
         join jobs as j on j.id = page.id) as jobs,
        (select total from counted)::float8 as total`;
  });

/**
 * A page sorted by status or conclusion, the groups of some of its values (`$4`) walked in
 * order from the sort index, each job tested (at most `$5` jobs), the matches in the other
 * groups found through the indexes (`$6`…, the column's values holding a word without
 * those), where the words are rare; the test's parameters after them. `$1` the words that
 * name no value, `$2` offset, `$3` limit. Each part gives its first offset + limit in order,
 * so that the page is merged from at most twice that many jobs. The walk is limited by its
 * budget, so that PostgreSQL plans it to stop early rather than read the groups whole and
 * sort them (it takes a filter for rare). When it used its budget short of offset + limit
 * matches (`short`), the page may lack some of the groups' matches past it, and is found
 * another way; when it ran out of groups first, it holds all their matches.
 */
const groupedStatement = (column: GroupColumn, direction: SortOrder, shape: string, test: Test) =>
  statement(`jobs_grouped_${column}_${direction}_${shape}_${testKey(test)}`, () => {
    const order = orderBy(column, direction);
    const { conditions, next } = indexedConditions(shape, 6);
    return `
      with others as materialized (
        select * from jobs as j
        where not (j.${column} = any($4::text[]))
          and ${[...conditions, holdsEvery(test, next)].join(' and ')}
      ),
      walked as materialized (
        select * from (
          select * from jobs as j where j.${column} = any($4::text[]) order by ${order} limit $5
        ) as j
        where ${holdsEvery(test, next)} order by ${order} limit $2::int + $3::int
      )
      select coalesce(json_agg(${JOB_JSON} order by ${order}), '[]') as jobs,
        case when (select count(*) from walked) < $2::int + $3::int
          then (select count(*) from (
            select from jobs as j where j.${column} = any($4::text[]) limit $5) as budget) = $5
          else false end as short
      from (
        select * from (
          (select * from walked)
          union all
          (select * from others as j order by ${order} limit $2::int + $3::int)
        ) as j
        order by ${order} offset $2 limit $3
      ) as j`;
  });

/** The distinct values of a column, up to one past MAX_VALUES (its sort index, skipping). */
const distinctValues = (column: GroupColumn) => `array(
  with recursive v(value) as (
    (select ${column} from jobs order by ${column} limit 1)
    union all
    select (select ${column} from jobs where ${column} > v.value order by ${column} limit 1)
    from v where v.value is not null
  )
  select value from v where value is not null limit ${MAX_VALUES + 1})`;
/** Of a column's `values`, those that hold each word of `$1`, in order (by PostgreSQL's lower()). */
const holdingEach = (values: string) => `(
  select coalesce(json_agg(array(
      select v from unnest(${values}) as v where lower(v) like job_search_pattern(word)
    ) order by n), '[]')
  from unnest($1::text[]) with ordinality as w(word, n))`;
/**
 * Of each word of `$1` marked in `$2`, the dictionary's words (job_words, 0027) that hold it,
 * up to one more than MAX_EXPANDED (a word of a description holds a filter word, as each is
 * in the dictionary), whether a job's number may hold it (whether the numbers have each of
 * its characters), and whether a description's word past 200 characters does (those are in
 * the words index by their first 200 only).
 */
const EXPANSIONS = `(
  select coalesce(json_agg(case when w.expand then json_build_object(
      'words', job_words_holding(w.word, ${MAX_EXPANDED + 1}),
      'inNumbers', (select bool_and(c in (select character from job_number_characters))
        from unnest(string_to_array(lower(w.word), null)) as c),
      'inLongWords', job_long_words_hold(w.word)
    ) end order by n), '[]')
  from unnest($1::text[], $2::boolean[]) with ordinality as w(word, expand, n))`;
/**
 * What status and conclusion say of a filter (`$1` its words): the values holding each word;
 * and the dictionary's words holding those of `$2` (EXPANSIONS).
 */
const WORD_VALUES_STATEMENT = `
  select cardinality(s.all) > ${MAX_VALUES} or cardinality(c.all) > ${MAX_VALUES} as "tooMany",
    ${holdingEach('s.all')} as "statusesHolding", ${holdingEach('c.all')} as "conclusionsHolding",
    ${EXPANSIONS} as expansions
  from (select ${distinctValues('status')} as all) as s,
    (select ${distinctValues('conclusion')} as all) as c`;

/**
 * A sample: the jobs whose id hashes into a window of uuid_hash's range, from parameter
 * `$from` up to the next, within the quarter of the range jobs_sample_index holds (the
 * constant bound lets every plan use it): a range of the index, read in its order with
 * what a job is tested on, not visiting the table. The window's share of the range is the
 * sample's share of the jobs, drawn at random whatever the data.
 */
const inWindow = (from: number) =>
  `uuid_hash(j.id) >= $${from}::bigint and uuid_hash(j.id) < $${from + 1}::bigint
    and uuid_hash(j.id) < ${SAMPLED_HASHES_BELOW}`;
/**
 * A filter's own sample (`$2`, `$3`), for its estimate: each filter has a window of its own
 * where the sampled quarter allows, so the errors of two estimates are not the same error
 * (a filter rare enough to need the whole quarter shares it with every such filter). How
 * many of its jobs hold every word (`hits`; the test's parameters: `$1`, and from `$4`).
 */
const SAMPLE_JOBS = `select j.indexed_text, j.status, j.conclusion from jobs as j
  where ${inWindow(2)}`;
const sampleStatement = (test: Test) =>
  statement(
    `jobs_sample_${testKey(test)}`,
    () => `
      select count(*) filter (where ${holdsEvery(test, 4)})::float8 as hits,
        count(*)::float8 as rows
      from (${SAMPLE_JOBS}) as j`,
  );
/** A server's sample (`$1`, `$2`): what a filter is tested on. */
const SERVER_SAMPLE = `select j.indexed_text as text, j.status, j.conclusion
  from jobs as j where ${inWindow(1)}`;

/**
 * Whether the trigram index can narrow a word down: it needs three letters or digits in a
 * row (a shorter word, or punctuation alone, yields no trigram); the others go to the grams
 * index when that is cheaper than testing every job (lookedUp).
 */
const hasTrigrams = (word: string) => /[\p{L}\p{N}]{3}/u.test(word);

/**
 * Of the words the indexes can narrow down, those handed to them: the longest, which narrow
 * the most, trigrams before pairs of letters.
 */
const narrowest = (words: string[]) =>
  words
    .toSorted((a, b) => Number(hasTrigrams(b)) - Number(hasTrigrams(a)) || b.length - a.length)
    .slice(0, INDEXED_WORDS);

/**
 * The entries of the indexes' lists that looking `indexed` up decodes: a list per trigram (or
 * pair of letters) of each word, each at least as long as the word's jobs (`shareOf` them);
 * for a word looked up as the dictionary's words that hold it (`exact`), about as many as
 * its jobs.
 */
const listedFor = (
  indexed: string[],
  shareOf: (word: string) => number,
  jobs: number,
  exact: (word: string) => boolean = () => false,
) =>
  indexed.reduce((sum, word) => {
    const lists = exact(word) ? 1 : Math.max(1, word.length - (hasTrigrams(word) ? 2 : 1));
    return sum + lists * shareOf(word) * jobs;
  }, 0);

/**
 * The words handed to the indexes, by a first sample: those with trigrams (narrowest), and
 * of the others, the rarest, as many as make reading the matches cheapest, or none when
 * testing every job costs less (`e` lists nearly every job). The indexes intersect their
 * lists, so words each common but rare together (`um mi`) are looked up, not scanned for:
 * the jobs rechecked are taken as those the words would hold if independent, or the
 * filter's `share` when more. Not a short word that also names statuses or conclusions
 * (`pe`: Pending): it holds those values' jobs too, a fifth of all, so PostgreSQL tests its
 * condition on each job instead, running job_search_grams on each (`be mu pe`: 313 ms).
 * Or, when that costs less, the rarest of the words in no number that few enough words of
 * the dictionary hold (`expanded`), alone and `whole`: through the words index.
 */
function lookedUp(
  words: string[],
  shareOf: (word: string) => number,
  share: number,
  jobs: number,
  namesValues: (word: string) => boolean,
  expanded: (string[] | null)[],
): Pick<Filter, 'indexed' | 'whole'> {
  const trigrams = narrowest(words.filter(hasTrigrams));
  const others = words
    .filter((word) => !hasTrigrams(word) && !namesValues(word))
    .toSorted((a, b) => shareOf(a) - shareOf(b));
  const cost = (indexed: string[]) => {
    if (!indexed.length) return COST.scanned * jobs;
    const held = Math.max(
      share,
      indexed.reduce((product, word) => product * shareOf(word), 1),
    );
    // Beside a trigram word (whose lists only point at candidates), every job of the two
    // indexes' intersection is rechecked on all their conditions: job_search_grams is run
    // on each (`go tup`: 12,000 jobs, ~500 ms against 60 ms through the trigrams alone).
    const rechecked =
      indexed.some(hasTrigrams) && !indexed.every(hasTrigrams) ? COST.grams * held * jobs : 0;
    return COST.indexed * held * jobs + COST.listed * listedFor(indexed, shareOf, jobs) + rechecked;
  };
  let cheapest = trigrams;
  for (let n = 1; n <= Math.min(others.length, INDEXED_WORDS - trigrams.length); n++) {
    const indexed = [...trigrams, ...others.slice(0, n)];
    if (cost(indexed) < cost(cheapest)) cheapest = indexed;
  }
  // Or the rarest word the words index lists exactly, alone: its jobs (its lists no longer,
  // where a trigram's are longer than the word's), each tested on the others. Not beside
  // other conditions of the indexes, whose rechecks would split each job's description
  // again (~10 µs a job of prose), nor for a common word, whose bitmap would outgrow
  // work_mem (`his` in prose: 167,536 jobs through 161 words, 90 ms).
  const [whole] = words
    .filter((word) => expanded[words.indexOf(word)])
    .toSorted((a, b) => shareOf(a) - shareOf(b));
  const listed = whole === undefined ? Infinity : Math.max(shareOf(whole), share) * jobs;
  return listed <= WHOLE_WORD_JOBS && COST.indexed * listed <= cost(cheapest)
    ? { indexed: [whole!], whole }
    : { indexed: cheapest, whole: undefined };
}

/**
 * A filter's total, exact or an estimate, and how many entries of the indexes' lists
 * its words cost (what reading its matches that way costs).
 */
interface Total {
  count: number;
  estimate: boolean;
  /** The words handed to the indexes, and the one looked up whole (see lookedUp). */
  indexed: string[];
  whole?: string;
  listed: number;
  /** The filter's first sample by status and by conclusion (none when counted unsampled). */
  groups?: Groups;
}

/** Each status's (or conclusion's) rows and hits in a sample. */
type Groups = Record<GroupColumn, Record<string, [rows: number, hits: number]>>;

/**
 * What status and conclusion say of a filter: for each word, the values of each that hold
 * it; undefined when either column has more than MAX_VALUES values.
 */
type WordValues = {
  holding: Record<GroupColumn, string[][]>;
  /**
   * Of each word in no job's number, the dictionary's words that hold it (see
   * indexedConditions); null when a number or a word past 200 characters may hold it, or
   * too many words do.
   */
  expanded: (string[] | null)[];
  /** Of each word with trigrams, whether the numbers have every one of its characters. */
  numberLike: boolean[];
};

/**
 * Each database's filter totals (a few hundred kB), pages (up to ~25 MB) and word values,
 * kept per generation.
 */
const totalsOf = perDatabase(() => new GenerationCache<Total>(10_000));
const pagesOf = perDatabase(() => new GenerationCache<JobList>(1_000));
const wordValuesOf = perDatabase(() => new GenerationCache<WordValues | null>(10_000));
/** The pages being found, by page and generation. */
const findingOf = perDatabase(() => new SharedWork<JobList>());

/** What the word values statement answers. */
type WordValuesRow = {
  tooMany: boolean;
  statusesHolding: string[][];
  conclusionsHolding: string[][];
  expansions: ({ words: string[]; inNumbers: boolean; inLongWords: boolean } | null)[];
};

const expandedFrom = (expansion: WordValuesRow['expansions'][number]) =>
  expansion &&
  !expansion.inNumbers &&
  !expansion.inLongWords &&
  expansion.words.length <= MAX_EXPANDED
    ? expansion.words
    : null;

const wordValuesFrom = (read: WordValuesRow): WordValues | null =>
  read.tooMany
    ? null
    : {
        holding: { status: read.statusesHolding, conclusion: read.conclusionsHolding },
        expanded: read.expansions.map(expandedFrom),
        numberLike: read.expansions.map((expansion) => !!expansion?.inNumbers),
      };

/** The parameters of the word values statement: the words, and which have trigrams. */
const wordValuesParameters = (words: string[]) => [words, words.map(hasTrigrams)];

/** A filter's word values at `generation`: kept, or read (a few index probes). */
async function wordValuesAt(
  db: Session,
  { words, key }: Pick<Filter, 'words' | 'key'>,
  generation: number,
  cache: GenerationCache<WordValues | null>,
): Promise<WordValues | undefined> {
  const kept = cache.get(key, generation);
  if (kept !== undefined) return kept ?? undefined;
  const [read] = await namedQuery<WordValuesRow>(
    db,
    'jobs_word_values',
    WORD_VALUES_STATEMENT,
    wordValuesParameters(words),
  );
  return cache.keep(key, generation, wordValuesFrom(read!)) ?? undefined;
}

/**
 * A page of jobs (list fields only) matching the filter, in a stable order (ties broken
 * by the unique friendly number), with the total. Totals are exact up to
 * EXACT_TOTAL_UP_TO matches, and beyond it whenever counting costs no more than sampling;
 * otherwise estimated from a sample and flagged. A page past the last answers the last
 * page, and says so in `page`. Filtered lists are read on the search connections
 * (withSearchSession), so that a slow filter cannot starve other requests.
 */
export async function listJobs(db: Db, query: JobListQuery): Promise<JobList> {
  const words = [...new Set(query.filter.split(/\s+/u).filter(Boolean))];
  // An unfiltered page is two index probes, read on the main pool: never behind searches.
  if (!words.length) return withSession(db, (session) => listAll(session, query));
  return withSearchSession(db, (session) => listMatching(session, query, words, db));
}

async function listAll(db: Session, query: JobListQuery): Promise<JobList> {
  const { name, text } = allStatement(query.sortColumn, query.sortOrder);
  const read = async (page: number) =>
    (
      await namedQuery<{ jobs: JobList['jobs']; total: number }>(db, name, text, [
        (page - 1) * query.perPage,
        query.perPage,
      ])
    )[0]!;
  let page = query.page;
  let answer = await read(page);
  if (!answer.jobs.length && page > 1 && answer.total) {
    page = lastPage(answer.total, query.perPage);
    answer = await read(page);
  }
  return { jobs: answer.jobs, totalJobs: answer.total, page, totalIsEstimate: false };
}

const lastPage = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

const nothing = (): JobList => ({ jobs: [], totalJobs: 0, page: 1, totalIsEstimate: false });

/**
 * What reading a job costs each way, in about microseconds, measured at 1,000,000 jobs: the
 * walk reads the table in the sort order, a job after the other within a status or
 * conclusion (jobs are stored in number order), a page each in the description's order
 * (`walkedByText`); the indexes' candidates are read in the table's order (their lists
 * decode much faster), and the matches among them kept and sorted (`kept`, measured from
 * 3,000 to 90,000 matches); a plain scan reads every job in order; a sample is read from
 * its index and tested (0.3 + 0.3 µs); `grams`, job_search_grams run on a job's text (see
 * lookedUp).
 */
const COST = {
  walked: 1,
  walkedByText: 2.5,
  indexed: 1,
  kept: 2,
  listed: 0.05,
  scanned: 0.15,
  sampled: 0.65,
  grams: 40,
};
const walkedCost = (column: SortColumn) =>
  column === 'description' ? COST.walkedByText : COST.walked;

/**
 * A page of the jobs that hold every word: kept by this server while the jobs are of the
 * generation it was read at (people typing the same filter, a status everyone looks at),
 * else found the cheaper way for how many match (findPage).
 */
async function listMatching(
  session: Session,
  query: JobListQuery,
  words: string[],
  db: Db,
): Promise<JobList> {
  const key = words.join('\u0000');
  const wordValues = wordValuesOf(db);
  const { jobs, generation } = await jobTotals(session, { words, key }, wordValues);
  if (jobs === 0) return nothing();
  const pages = pagesOf(db);
  const pageKey = [key, query.sortColumn, query.sortOrder, query.page, query.perPage].join(
    '\u0001',
  );
  const totals = totalsOf(db);
  const kept = pages.get(pageKey, generation);
  if (!kept) {
    // Asked again while it is being found (on PGlite the turns keep this from happening).
    return findingOf(db).run(`${pageKey}\u0002${generation}`, async () => {
      const values = await wordValuesAt(session, { words, key }, generation, wordValues);
      // With too many statuses or conclusions to search as values, no index serves a word.
      const filter: Filter = {
        words,
        key,
        indexed: values ? narrowest(words.filter(hasTrigrams)) : [],
        values,
        ...testOf(words, values),
      };
      return pages.keep(
        pageKey,
        generation,
        await findPage(session, query, filter, { jobs, generation }, totals, serverSamples(db)),
      );
    });
  }
  // The filter's total as now known: an estimate kept with the page may have been counted
  // since (another page read all the matches), and every page then says the same.
  const total = totals.get(key, generation);
  return total ? { ...kept, totalJobs: total.count, totalIsEstimate: total.estimate } : kept;
}

/**
 * A page of the jobs that hold every word, the cheaper way for how many match: known from
 * this server's kept total while the jobs are of the generation it was found at, else
 * sampled (or, among few jobs, counted). A total not kept is counted when it is small, or
 * when counting costs no more than sampling for an estimate: then the page comes with it,
 * from all the matches. Otherwise the page is walked and the total estimated.
 */
async function findPage(
  db: Session,
  query: JobListQuery,
  filter: Filter,
  { jobs, generation }: { jobs: number; generation: number },
  totals: GenerationCache<Total>,
  samples: ServerSamples,
): Promise<JobList> {
  const { words, key } = filter;
  let total = totals.get(key, generation);
  // Few jobs: reading all the matches costs less than a first sample would, and brings the
  // exact total, whose share then chooses the way of the filter's other pages (a dense
  // filter's walked, not all its matches sorted again).
  if (!total && COST.scanned * jobs <= COST.sampled * FIRST_SAMPLE) {
    const answer = await readMatches(db, query, filter);
    const { indexed } = filter;
    totals.keep(key, generation, { count: answer.totalJobs, estimate: false, indexed, listed: 0 });
    return answer;
  }
  let listed: number;
  let share: number;
  let groups: Groups | undefined;
  if (total) {
    ({ listed, groups } = total);
    filter = { ...filter, indexed: total.indexed, whole: total.whole };
    share = total.count / jobs;
  } else {
    const first = await firstSample(db, samples, filter, jobs);
    groups = { status: first.byStatus, conclusion: first.byConclusion };
    const shareOf = (word: string) => first.wordHits[words.indexOf(word)]! / first.rows;
    share = sampledShare(first.hits, first.rows);
    if (filter.values) {
      // The words that name no value are the test's plain words (testOf).
      const { plainWords } = filter;
      const namesValues = (word: string) => !plainWords.includes(word);
      const { expanded } = filter.values;
      filter = { ...filter, ...lookedUp(words, shareOf, share, jobs, namesValues, expanded) };
    }
    listed = listedFor(filter.indexed, shareOf, jobs, (word) => word === filter.whole);
  }
  if (total?.count === 0) return nothing();
  const { indexed } = filter;
  const keep = (count: number, estimate: boolean) =>
    totals.keep(key, generation, { count, estimate, indexed, whole: filter.whole, listed, groups });
  const fromMatches = async () => {
    const answer = await readMatches(db, query, filter);
    keep(answer.totalJobs, false);
    return answer;
  };

  const pageEnd = query.page * query.perPage;
  // Sorted by status or conclusion, the walk meets each group's matches in turn.
  const column = groupColumn(query.sortColumn);
  const byValue = column && groups?.[column];
  const walked = walkedCost(query.sortColumn);
  const walkCost =
    walked * (byValue ? walkedThrough(byValue, query.sortOrder, pageEnd, jobs) : pageEnd / share);
  const matchesCost =
    (filter.indexed.length
      ? COST.indexed * share * jobs + COST.listed * listed
      : COST.scanned * jobs) +
    COST.kept * share * jobs;
  // A total not known yet is counted, with the page, when that is cheap enough.
  const counted =
    !total &&
    (share * jobs <= 1.5 * EXACT_TOTAL_UP_TO ||
      matchesCost <= COST.sampled * sampledFor(share, jobs) ||
      share * FIRST_SAMPLE < 1);
  if (counted) return fromMatches();
  // Or the groups where the matches are dense walked, and the others' through the indexes.
  const grouped =
    byValue && filter.values && filter.indexed.length
      ? groupsToWalk(byValue, filter.values.holding[column], { jobs, pageEnd, walked, listed })
      : undefined;
  let page: JobList['jobs'];
  if (grouped && grouped.cost <= Math.min(walkCost, matchesCost)) {
    page = await readGrouped(db, query, filter, column!, grouped.values, 4 * grouped.walk);
  } else {
    if (matchesCost <= walkCost) return fromMatches();
    page = await walk(db, query, filter, 4 * (walkCost / walked), jobs);
  }
  if (page.length < query.perPage) return fromMatches();
  if (!total) {
    const estimated = await estimate(db, filter, jobs, share);
    // An estimate under the line where totals must be exact is counted after all.
    total =
      estimated <= EXACT_TOTAL_UP_TO ? keep(await count(db, filter), false) : keep(estimated, true);
  }
  return { jobs: page, totalJobs: total.count, page: query.page, totalIsEstimate: total.estimate };
}

/**
 * A filter's words, its key among kept totals and pages, the words the indexes are given,
 * what status and conclusion say of it, and how its jobs are tested (holdsEvery): the words
 * that name no value (its `$1`), and the parameters that follow the statement's others.
 */
type Filter = {
  words: string[];
  key: string;
  indexed: string[];
  /** The word looked up as the dictionary's words that hold it, alone (lookedUp). */
  whole?: string;
  values: WordValues | undefined;
  test: Test;
  plainWords: string[];
  testParameters: (string | string[])[];
};

/** How a filter's jobs are tested, by what its words name (see holdsEvery). */
function testOf(
  words: string[],
  values: WordValues | undefined,
): Pick<Filter, 'test' | 'plainWords' | 'testParameters'> {
  if (!values)
    return { test: { valueWords: 0, rest: true }, plainWords: [], testParameters: [words] };
  const named = words.flatMap((word, i) => {
    const [statuses, conclusions] = [values.holding.status[i]!, values.holding.conclusion[i]!];
    return statuses.length + conclusions.length ? [[word, statuses, conclusions] as const] : [];
  });
  const rest = named.slice(VALUE_WORDS).map(([word]) => word);
  return {
    test: { valueWords: Math.min(named.length, VALUE_WORDS), rest: rest.length > 0 },
    plainWords: words.filter((word) => !named.some(([named]) => named === word)),
    testParameters: [...named.slice(0, VALUE_WORDS).flat(), ...(rest.length ? [rest] : [])],
  };
}

/** What a sample said of a filter: hits among rows. */
type Sampled = { hits: number; rows: number };

const groupColumn = (column: SortColumn): GroupColumn | undefined =>
  column === 'status' || column === 'conclusion' ? column : undefined;

const sampledRows = (byValue: Groups[GroupColumn]) =>
  Object.values(byValue).reduce((sum, [rows]) => sum + rows, 0);

/**
 * Sorted by status or conclusion, the jobs the walk tests to reach `pageEnd` matches, by a
 * sample's groups in the sort order: a group where the filter is rare is walked whole
 * (`in progress pass` by conclusion: the Fail, Inconclusive and Out of specification jobs
 * before the first Pass). All the jobs when the groups hold too few matches.
 */
function walkedThrough(
  byValue: Groups[GroupColumn],
  direction: SortOrder,
  pageEnd: number,
  jobs: number,
) {
  const rows = sampledRows(byValue);
  const ordered = Object.entries(byValue).toSorted(
    ([a], [b]) => (a < b ? -1 : 1) * (direction === 'asc' ? 1 : -1),
  );
  let walked = 0;
  let met = 0;
  for (const [, [groupRows, hits]] of ordered) {
    const matches = (hits / rows) * jobs;
    if (met + matches >= pageEnd) return walked + (pageEnd - met) / (hits / groupRows);
    walked += (groupRows / rows) * jobs;
    met += matches;
  }
  return jobs;
}

/**
 * Sorted by status or conclusion, the values whose groups are walked (groupedStatement), by
 * a sample's groups: of the values that hold a word (`holding`, per word), the densest in
 * matches first, as many as cost least, the jobs walked, and the cost: walking them to the
 * page's end, and reading the other groups' matches through the indexes.
 */
function groupsToWalk(
  byValue: Groups[GroupColumn],
  holding: string[][],
  { jobs, pageEnd, walked, listed }: Record<'jobs' | 'pageEnd' | 'walked' | 'listed', number>,
) {
  const named = new Set(holding.flat());
  const rows = sampledRows(byValue);
  const hits = Object.values(byValue).reduce((sum, [, groupHits]) => sum + groupHits, 0);
  const density = ([groupRows, groupHits]: [number, number]) => groupHits / groupRows;
  const densest = Object.entries(byValue)
    .filter(([value, [, groupHits]]) => named.has(value) && groupHits > 0)
    .toSorted(([, a], [, b]) => density(b) - density(a));
  let best: { values: string[]; walk: number; cost: number } | undefined;
  let [walkedRows, walkedHits] = [0, 0];
  for (let n = 1; n <= densest.length; n++) {
    const [, [groupRows, groupHits]] = densest[n - 1]!;
    walkedRows += groupRows;
    walkedHits += groupHits;
    const walk = Math.min(pageEnd / (walkedHits / walkedRows), (walkedRows / rows) * jobs);
    const others = sampledShare(hits - walkedHits, rows) * jobs;
    const cost = walked * walk + (COST.indexed + COST.kept) * others + COST.listed * listed;
    if (!best || cost < best.cost)
      best = { values: densest.slice(0, n).map(([value]) => value), walk, cost };
  }
  return best;
}

/** The share of jobs a sample's hits stand for; no hit: rare, weighed as half a hit. */
const sampledShare = (hits: number, rows: number) => (hits ? hits / rows : 0.5 / Math.max(rows, 1));

const JOB_TOTALS = 'select jobs::float8 as jobs, generation::float8 as generation from job_totals';
/** The jobs' totals and, in the same snapshot, what status and conclusion say of a filter. */
const TOTALS_AND_WORD_VALUES_STATEMENT = `
  select t.*, w.* from (${JOB_TOTALS}) as t, (${WORD_VALUES_STATEMENT}) as w`;

/**
 * The jobs, counted by the triggers, and their generation (0017); with the word values of
 * a filter this server has not seen (kept in `cache` at that generation), in one round trip.
 */
async function jobTotals(
  db: Session,
  filter: Pick<Filter, 'words' | 'key'>,
  cache: GenerationCache<WordValues | null>,
) {
  type Totals = { jobs: number; generation: number };
  if (cache.knows(filter.key))
    return (await namedQuery<Totals>(db, 'jobs_totals', JOB_TOTALS, []))[0]!;
  const [read] = await namedQuery<Totals & WordValuesRow>(
    db,
    'jobs_totals_word_values',
    TOTALS_AND_WORD_VALUES_STATEMENT,
    wordValuesParameters(filter.words),
  );
  cache.keep(filter.key, read!.generation, wordValuesFrom(read!));
  return read!;
}

/**
 * The window of uuid_hash (an int4) a sample of about `rows` of the `jobs` hashes into,
 * starting `at` (0 to 1) of the way along the sampled quarter of the range: the whole
 * quarter, a quarter of the jobs, when rows reaches that.
 */
function sampleWindow(at: number, rows: number, jobs: number): [number, number] {
  const bottom = -(2 ** 31);
  const sampled = SAMPLED_HASHES_BELOW - bottom;
  const width = Math.min(sampled, (rows / jobs) * 2 ** 32);
  const start = bottom + at * (sampled - width);
  return [Math.floor(start), Math.ceil(start + width)];
}

/** Where a filter's own sample starts: placed by a hash of its key. */
const windowOf = (filter: Filter) => fnv1a(filter.key) / 2 ** 32;

/** FNV-1a, 32 bits: a quick, well-spread hash of a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A job of a server's sample: its number and description in lower case, status, conclusion. */
type SampledJob = { text: string; status: string; conclusion: string };
type ServerSample = { rows: SampledJob[]; jobs: number; takenAt: number };
/** A database's sample as this server keeps it, and its taking (one at a time). */
type ServerSamples = { kept?: ServerSample; taking: SharedWork<ServerSample> };
const serverSamples = perDatabase((): ServerSamples => ({
  taking: new SharedWork<ServerSample>(),
}));

/**
 * This server's sample of about FIRST_SAMPLE of the `jobs`, drawn at random (a window of the
 * hash range placed at random), taken again after SERVER_SAMPLE_KEPT_MS or once the jobs
 * grew or shrank by a tenth. Read from the sample index (~1 ms) and kept, it tells
 * each filter new to the server common from rare for nothing. Only the way a page is found
 * rests on it, never a total.
 */
async function serverSample(
  db: Session,
  samples: ServerSamples,
  jobs: number,
): Promise<ServerSample> {
  const { kept } = samples;
  if (
    kept &&
    Date.now() - kept.takenAt < SERVER_SAMPLE_KEPT_MS &&
    Math.abs(jobs - kept.jobs) <= kept.jobs / 10
  )
    return kept;
  return samples.taking.run('', async () => {
    const rows = await namedQuery<SampledJob>(
      db,
      'jobs_server_sample',
      SERVER_SAMPLE,
      sampleWindow(Math.random(), FIRST_SAMPLE, jobs),
    );
    return (samples.kept = { rows, jobs, takenAt: Date.now() });
  });
}

/**
 * What this server's sample says of a filter: its hits among the rows, how many hold each word
 * in number or description (`wordHits`, in order: what the indexes list), and the rows and
 * hits of each status and each conclusion. PostgreSQL's lower() and JavaScript's may differ
 * on a rare letter: a share a little off only prices the ways a little off.
 */
async function firstSample(db: Session, samples: ServerSamples, filter: Filter, jobs: number) {
  const { rows } = await serverSample(db, samples, jobs);
  const words = filter.words.map((word) => word.toLowerCase());
  const byStatus: Groups['status'] = {};
  const byConclusion: Groups['conclusion'] = {};
  let hits = 0;
  for (const job of rows) {
    const tested =
      !filter.test.valueWords && !filter.test.rest
        ? job.text
        : `${job.text} ${job.status} ${job.conclusion}`.toLowerCase();
    const holds = words.every((word) => tested.includes(word));
    if (holds) hits++;
    for (const [groups, value] of [
      [byStatus, job.status],
      [byConclusion, job.conclusion],
    ] as const) {
      const group = (groups[value] ??= [0, 0]);
      group[0]++;
      if (holds) group[1]++;
    }
  }
  const wordHits = words.map((word) => rows.filter((job) => job.text.includes(word)).length);
  return { hits, rows: rows.length, wordHits, byStatus, byConclusion };
}

/** The jobs a walk tests at most: its `budget`, and at least the page's end + 1,000. */
const jobsToTest = (query: JobListQuery, budget: number) =>
  Math.ceil(Math.max(budget, query.page * query.perPage + 1000));

/** A page by walking the sort order, testing at most `budget` jobs (jobsToTest). */
const walk = async (
  db: Session,
  query: JobListQuery,
  filter: Filter,
  budget: number,
  jobs: number,
) => {
  const { name, text } = walkStatement(query.sortColumn, query.sortOrder, filter.test);
  const most = Math.min(jobs, jobsToTest(query, budget));
  const [answer] = await namedQuery<{ jobs: JobList['jobs'] }>(db, name, text, [
    filter.plainWords,
    (query.page - 1) * query.perPage,
    query.perPage,
    most,
    ...filter.testParameters,
  ]);
  return answer!.jobs;
};

/**
 * The shape and parameters of the indexes' conditions (see indexedConditions), leaving out
 * the `walked` values of column `except` (their groups are walked: groupedStatement).
 */
function indexedParameters(
  { words, indexed, whole, values }: Filter,
  except?: GroupColumn,
  walked: string[] = [],
) {
  let shape = '';
  const parameters = indexed.flatMap((word) => {
    const holding = (column: GroupColumn) =>
      values!.holding[column][words.indexOf(word)]!.filter(
        (value) => column !== except || !walked.includes(value),
      );
    const [statuses, conclusions] = [holding('status'), holding('conclusion')];
    const named = statuses.length + conclusions.length > 0;
    const kind = word === whole ? 'w' : hasTrigrams(word) ? 't' : 'g';
    shape += named ? kind.toUpperCase() : kind;
    const looked =
      word === whole
        ? values!.expanded[words.indexOf(word)]!
        : kind === 't' && values!.numberLike[words.indexOf(word)]
          ? longestRun(word)
          : word;
    return named ? [looked, statuses, conclusions] : [looked];
  });
  return { shape, parameters };
}

/**
 * A word's longest run of letters or digits, what the trigram index is given for a word that
 * may be in a number: its parts and their edges are the numbers' densest trigrams (`j-0042`:
 * `j` and the start of `0042` are in every number: 8.5 ms for its 1,139 candidates, where
 * `0042` alone gives 1,338 in 1.2 ms). The test still holds the job to the whole word.
 */
const longestRun = (word: string) =>
  (word.match(/[\p{L}\p{N}]+/gu) ?? [word]).reduce((a, b) => (b.length > a.length ? b : a));

const count = async (db: Session, filter: Filter) => {
  const { shape, parameters } = indexedParameters(filter);
  const { name, text } = countStatement(shape, filter.test);
  const [answer] = await namedQuery<{ total: number }>(db, name, text, [
    filter.plainWords,
    ...parameters,
    ...filter.testParameters,
  ]);
  return answer!.total;
};

/**
 * A page sorted by status or conclusion, the groups of `walked` values walked, testing at
 * most `budget` jobs (jobsToTest; groupedStatement); none when the walk ended short.
 */
const readGrouped = async (
  db: Session,
  query: JobListQuery,
  filter: Filter,
  column: GroupColumn,
  walked: string[],
  budget: number,
) => {
  const { shape, parameters } = indexedParameters(filter, column, walked);
  const { name, text } = groupedStatement(column, query.sortOrder, shape, filter.test);
  const [answer] = await namedQuery<{ jobs: JobList['jobs']; short: boolean }>(db, name, text, [
    filter.plainWords,
    (query.page - 1) * query.perPage,
    query.perPage,
    walked,
    jobsToTest(query, budget),
    ...parameters,
    ...filter.testParameters,
  ]);
  return answer!.short ? [] : answer!.jobs;
};

/** The page from all the matches, with their exact total; a page past the last answers the last. */
async function readMatches(db: Session, query: JobListQuery, filter: Filter): Promise<JobList> {
  const { shape, parameters } = indexedParameters(filter);
  const { name, text } = matchesStatement(query.sortColumn, query.sortOrder, shape, filter.test);
  const [answer] = await namedQuery<{ jobs: JobList['jobs']; total: number }>(db, name, text, [
    filter.plainWords,
    (query.page - 1) * query.perPage,
    query.perPage,
    ...parameters,
    ...filter.testParameters,
  ]);
  const { jobs, total } = answer!;
  const page = Math.min(query.page, lastPage(total, query.perPage));
  return { jobs, totalJobs: total, page, totalIsEstimate: false };
}

/**
 * The jobs an estimate at `share` samples: enough to hold about HITS_FOR_ESTIMATE hits (a
 * tenth more, as the share is itself sampled), at most the quarter of the jobs sampled.
 */
const sampledFor = (share: number, jobs: number) =>
  Math.min(Math.ceil((HITS_FOR_ESTIMATE / share) * 1.1), Math.ceil(jobs / 4));

/** The total of a filter too common to count cheaply, from a sample (sampledFor). */
async function estimate(db: Session, filter: Filter, jobs: number, share: number) {
  const window = sampleWindow(windowOf(filter), sampledFor(share, jobs), jobs);
  const { name, text } = sampleStatement(filter.test);
  const [sampled] = await namedQuery<Sampled>(db, name, text, [
    filter.plainWords,
    ...window,
    ...filter.testParameters,
  ]);
  return Math.round((sampled!.hits / Math.max(sampled!.rows, 1)) * jobs);
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
 * The indexes a bulk load drops and builds again: the search's (trigrams,
 * 0017_job_search_trigrams.sql; letters and pairs, 0019_job_search_short_words.sql; the
 * sample, 0026_job_sample_index.sql; the words, 0027_job_words.sql) and the sort orders'
 * (0005_jobs.sql). The primary key and the unique job number stay: they keep the load right.
 */
const REBUILT_INDEXES = [
  'jobs_indexed_text_trgm_index',
  'jobs_indexed_text_grams_index',
  'jobs_sample_index',
  'jobs_description_words_index',
  'jobs_status_friendly_number_index',
  'jobs_conclusion_friendly_number_index',
  'jobs_description_friendly_number_index',
];

/**
 * The indexes to rebuild, by name and definition, when a load of `count` jobs at least
 * doubles the jobs; else none.
 */
async function indexesToRebuild(tx: Pick<Db, 'execute'>, count: number) {
  const [{ jobs } = { jobs: 0 }] = await queryRows<{ jobs: number }>(
    tx,
    sql`select jobs::float8 as jobs from job_totals`,
  );
  if (count < jobs) return [];
  return queryRows<{ name: string; definition: string }>(
    tx,
    sql`select indexname as name, indexdef as definition from pg_indexes
      where tablename = 'jobs' and indexname in ${REBUILT_INDEXES}`,
  );
}

/**
 * Generates and inserts jobs `from`..`to` (1-based positions) in batches, reporting
 * progress, in one transaction: other sessions see the jobs when it commits. `generate`
 * makes the job at a position (the generator's, or the benchmark's prose jobs).
 * `rebuildSearch`, for a database no one reads meanwhile (the benchmark's), with a load
 * that at least doubles the jobs: the search's and the sort orders' indexes are dropped and
 * built again at its end, from sorted entries, which costs less than adding each job's
 * entries as it comes and takes less room (bench/README.md); dropping them locks everyone
 * else off the jobs until the load commits.
 */
export async function loadJobs(
  db: Pick<Db, 'transaction'>,
  from: number,
  to: number,
  onProgress: (done: number) => void = () => {},
  {
    batchSize = 2000,
    generate = generateJob,
    rebuildSearch = false,
  }: { batchSize?: number; generate?: typeof generateJob; rebuildSearch?: boolean } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    const rebuilt = rebuildSearch ? await indexesToRebuild(tx, to - from + 1) : [];
    for (const { name } of rebuilt) await tx.execute(sql.raw(`drop index "${name}"`));
    for (let start = from; start <= to; start += batchSize) {
      const end = Math.min(to, start + batchSize - 1);
      const batch = Array.from({ length: end - start + 1 }, (_, i) => generate(start + i));
      await insertJobs(tx, batch);
      onProgress(end - from + 1);
    }
    if (rebuilt.length) await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
    for (const { definition } of rebuilt) await tx.execute(sql.raw(definition));
    await tx.execute(sql`analyze jobs`);
  });
}

/**
 * After a large load, outside any transaction: VACUUM moves the pending entries of the
 * trigram and grams indexes (kept apart to make inserts cheap, and read by every search
 * until moved) into the indexes, and marks the pages all-visible.
 */
export async function settleJobSearch(db: Pick<Db, 'execute'>): Promise<void> {
  await db.execute(sql`vacuum analyze jobs`);
}
