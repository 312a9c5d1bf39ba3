import { type SQL, sql } from 'drizzle-orm';
import type { JobListQuery, JobSummary } from '@common/schemas/jobs';
import { type Db, queryRows } from '../../db/client';

type SortColumn = JobListQuery['sortColumn'];
type SortOrder = JobListQuery['sortOrder'];

/** Rows read per FETCH while building. */
const FETCH_SIZE = 20_000;
/**
 * Matches up to this share of all jobs are sorted by their description ranks; more by
 * walking the description order (a million steps, about as costly as sorting 15,000 ranks).
 */
const SORT_MATCHES_UP_TO_SHARE = 1 / 64;
/** How many sorted slots (4 bytes each), and how many filters, the cache of recent ones keeps. */
const CACHED_SLOTS = 8_000_000;
const CACHED_FILTERS = 10_000;

/** A growable list of integers (slots or terms). */
class IntList {
  private items = new Int32Array(16);
  length = 0;

  push(value: number) {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = value;
  }

  last() {
    return this.length ? this.items[this.length - 1] : undefined;
  }

  toArray() {
    return this.items.slice(0, this.length);
  }
}

/** Many strings in one buffer, out of the garbage collector's way: a million descriptions. */
class StringColumn {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  private ends = new Int32Array(0);
  private readonly building = new IntList();

  push(value: string) {
    const length = Buffer.byteLength(value);
    if (this.used + length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += this.bytes.write(value, this.used);
    this.building.push(this.used);
  }

  /** Drops the spare room once every string is in. */
  seal(): this {
    this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
    this.ends = this.building.toArray();
    return this;
  }

  get(index: number): string {
    return this.bytes.toString('utf8', index ? this.ends[index - 1] : 0, this.ends[index]);
  }

  /**
   * Whether the string at `index` contains `needle` (its UTF-8 bytes), read in place: for
   * a broad filter this runs over a million numbers, and decoding them all took ~180 ms.
   */
  includes(index: number, needle: Buffer): boolean {
    const last = this.ends[index]! - needle.length;
    search: for (let at = index ? this.ends[index - 1]! : 0; at <= last; at++) {
      for (let i = 0; i < needle.length; i++) if (this.bytes[at + i] !== needle[i]) continue search;
      return true;
    }
    return false;
  }
}

/** Each slot's place in `order` (its inverse). */
function ranksOf(order: Int32Array): Int32Array {
  const rank = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) rank[order[i]!] = i;
  return rank;
}

/** The values in both ascending lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const both = new Int32Array(Math.min(a.length, b.length));
  let count = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      both[count++] = a[i]!;
      i++;
      j++;
    }
  }
  return both.subarray(0, count);
}

const formatUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * The job list in memory: its rows, their search and their sort orders. At a million jobs
 * the database needs ~20 ms per filter (every match is a random heap visit to recheck a
 * trigram hit), far too slow for a thousand requests a second on two cores; this answers a
 * page in well under a millisecond, with an exact total, and without a round trip.
 *
 * Each job has a slot, its place in friendly-number order. Search runs over *terms*: each
 * job's whole number, status and conclusion, and the words of its description, in lower
 * case, each with the ascending list of slots it occurs in. A filter without spaces occurs
 * in a job's search text exactly when it occurs in one of its terms, so the terms that
 * contain it (found through a trigram index over the terms, not over the jobs) give the
 * matches exactly. The sort orders are read from the database, so they follow its
 * collation. Jobs only change by bulk loads, after which the index is rebuilt.
 */
export class JobSearchIndex {
  /** How many jobs there are: slots run from 0 to size - 1. */
  readonly size: number;
  private readonly rows: IndexRows;
  /**
   * Terms 0 to size - 1 are the jobs' numbers in lower case (term n occurs in slot n only),
   * kept in one buffer: a million strings on the heap made every full garbage collection
   * pause the server for ~50 ms.
   */
  private readonly numberTerms: StringColumn;
  /** Terms size and on: description words, statuses and conclusions. */
  private readonly otherTerms: string[];
  /** The slots of the terms after the numbers, ascending. */
  private readonly postings: Int32Array[];
  /** Trigram → the terms that contain it, ascending. */
  private readonly trigrams: Map<string, Int32Array>;
  /** The terms shorter than a trigram. */
  private readonly shortTerms: Int32Array;
  /** Every slot in each column's order (`orders.status[i]` is the i-th job by status). */
  private readonly orders: Record<SortColumn, Int32Array>;
  /** Each slot's place in the description order. */
  private readonly descriptionRank: Int32Array;
  /** Recent filters' matches in a column's order, by column and filter, oldest first. */
  private readonly recent = new Map<string, Int32Array>();
  private recentSlots = 0;

  private constructor(parts: IndexParts) {
    ({
      rows: this.rows,
      numberTerms: this.numberTerms,
      otherTerms: this.otherTerms,
      postings: this.postings,
      trigrams: this.trigrams,
      shortTerms: this.shortTerms,
      orders: this.orders,
    } = parts);
    this.size = this.rows.statusOf.length;
    this.descriptionRank = ranksOf(this.orders.description);
  }

  /** Reads every job in one snapshot and builds the index. */
  static async build(db: Db): Promise<JobSearchIndex> {
    return db.transaction(
      async (tx) => {
        const builder = new Builder();
        for await (const rows of fetchAll<JobRow>(
          tx,
          sql`select id, friendly_number, status, conclusion, description
              from jobs order by friendly_number`,
        )) {
          for (const row of rows) builder.add(row);
        }
        const databaseOrder = async (values: string[]) =>
          (
            await queryRows<{ value: string }>(
              tx,
              sql`select value from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) as value
                  order by value`,
            )
          ).map((row) => row.value);
        const statuses = await databaseOrder(builder.statuses.values);
        const conclusions = await databaseOrder(builder.conclusions.values);
        const byDescription = new IntList();
        for await (const rows of fetchAll<{ friendly_number: string }>(
          tx,
          sql`select friendly_number from jobs order by description, friendly_number`,
        )) {
          for (const row of rows) byDescription.push(builder.slotOf(row.friendly_number));
        }
        return new JobSearchIndex(builder.finish(statuses, conclusions, byDescription.toArray()));
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  /**
   * The slots of the jobs whose search text contains `filter` (case-insensitive), ascending;
   * every slot for an empty filter. Undefined when the terms cannot settle it: a filter with
   * spaces may span a description's words or two fields, which only the text itself shows.
   */
  match(filter: string): Int32Array | undefined {
    const text = filter.toLowerCase();
    if (!text) return this.orders.friendlyNumber;
    // Every occurrence of the text holds its longest space-free part within a single term.
    const part = text.split(' ').reduce((a, b) => (b.length > a.length ? b : a));
    if (!part) return undefined;
    const found = this.termsContaining(part, text);
    return found && this.union(found.toArray());
  }

  /**
   * The slots of one page of the jobs matching `filter` (see `match`), sorted by a column,
   * ties by number, and how many match; undefined when `match` is. A filter's matches in
   * each order are kept for a while, so paging through them costs nothing.
   */
  page(
    filter: string,
    column: SortColumn,
    direction: SortOrder,
    offset: number,
    limit: number,
  ): { slots: number[]; total: number } | undefined {
    const sorted = filter ? this.sortedMatches(filter, column) : this.orders[column];
    if (!sorted) return undefined;
    const total = sorted.length;
    const count = Math.max(0, Math.min(limit, total - offset));
    const slots = Array.from({ length: count }, (_, i) =>
      direction === 'asc' ? sorted[offset + i]! : sorted[total - 1 - offset - i]!,
    );
    return { slots, total };
  }

  /** The slots matching `filter`, in the column's order (cached). */
  private sortedMatches(filter: string, column: SortColumn): Int32Array | undefined {
    const key = `${column} ${filter.toLowerCase()}`;
    const cached = this.recent.get(key);
    if (cached) return cached;
    // The matches come in number order: other orders sort that (cached) list.
    const matches =
      column === 'friendlyNumber'
        ? this.match(filter)
        : this.sortedMatches(filter, 'friendlyNumber');
    if (!matches) return undefined;
    const sorted = this.sort(matches, column);
    this.recent.set(key, sorted);
    this.recentSlots += sorted.length;
    // First in, first out: reordering on every hit would leave the map full of holes.
    while (this.recentSlots > CACHED_SLOTS || this.recent.size > CACHED_FILTERS) {
      const [oldest, old] = this.recent.entries().next().value!;
      this.recent.delete(oldest);
      this.recentSlots -= old.length;
    }
    return sorted;
  }

  private sort(matches: Int32Array, column: SortColumn): Int32Array {
    // Slots are in friendly-number order already.
    if (column === 'friendlyNumber') return matches;
    const sorted = new Int32Array(matches.length);
    if (column === 'status' || column === 'conclusion') {
      // A few values, in the database's order: count, then place each slot after the
      // slots of the values before its own, keeping number order within a value.
      const { statusOf, statuses, conclusionOf, conclusions } = this.rows;
      const [valueOf, values] =
        column === 'status' ? [statusOf, statuses] : [conclusionOf, conclusions];
      const next = new Int32Array(values.length + 1);
      for (let i = 0; i < matches.length; i++) next[valueOf[matches[i]!]! + 1]!++;
      for (let v = 1; v < next.length; v++) next[v]! += next[v - 1]!;
      for (let i = 0; i < matches.length; i++) sorted[next[valueOf[matches[i]!]!]!++] = matches[i]!;
      return sorted;
    }
    const order = this.orders.description;
    if (matches.length <= this.size * SORT_MATCHES_UP_TO_SHARE) {
      const rank = this.descriptionRank;
      for (let i = 0; i < matches.length; i++) sorted[i] = rank[matches[i]!]!;
      sorted.sort();
      for (let i = 0; i < sorted.length; i++) sorted[i] = order[sorted[i]!]!;
      return sorted;
    }
    const isMatch = new Uint8Array(this.size);
    for (let i = 0; i < matches.length; i++) isMatch[matches[i]!] = 1;
    for (let i = 0, at = 0; i < order.length; i++) if (isMatch[order[i]!]) sorted[at++] = order[i]!;
    return sorted;
  }

  /** The list fields of the jobs in these slots. */
  summaries(slots: number[]): JobSummary[] {
    const { ids, friendlyNumbers, descriptions, statusOf, statuses, conclusionOf, conclusions } =
      this.rows;
    return slots.map((slot) => ({
      _id: formatUuid(ids.toString('hex', slot * 16, slot * 16 + 16)),
      friendlyNumber: friendlyNumbers.get(slot),
      status: statuses[statusOf[slot]!]!,
      conclusion: conclusions[conclusionOf[slot]!]!,
      description: descriptions.get(slot),
    }));
  }

  private termText(term: number): string {
    return term < this.size ? this.numberTerms.get(term) : this.otherTerms[term - this.size]!;
  }

  /**
   * The terms that contain `part`, which all contain `text` too (`part` is `text` or its
   * longest space-free part); undefined as soon as one does not, so a filter that cannot
   * be settled here costs little.
   */
  private termsContaining(part: string, text: string): IntList | undefined {
    const found = new IntList();
    const holdsText =
      part === text ? () => true : (term: number) => this.termText(term).includes(text);
    if (part.length < 3) {
      // A term of three characters or more holds the part inside one of its trigrams.
      const isFound = new Uint8Array(this.size + this.otherTerms.length);
      for (const [trigram, terms] of this.trigrams) {
        if (trigram.includes(part)) for (let i = 0; i < terms.length; i++) isFound[terms[i]!] = 1;
      }
      for (const term of this.shortTerms) if (this.termText(term).includes(part)) isFound[term] = 1;
      for (let term = 0; term < isFound.length; term++) {
        if (!isFound[term]) continue;
        if (!holdsText(term)) return undefined;
        found.push(term);
      }
      return found;
    }
    // The terms holding every trigram of the part: intersect the lists, shortest first.
    const lists: Int32Array[] = [];
    for (let i = 0; i + 3 <= part.length; i++) {
      const terms = this.trigrams.get(part.slice(i, i + 3));
      if (!terms) return found;
      lists.push(terms);
    }
    lists.sort((a, b) => a.length - b.length);
    let candidates = lists[0]!;
    for (const list of lists.slice(1)) {
      // Checking a few candidates beats merging them with a far longer list.
      if (list.length > candidates.length * 16) break;
      candidates = intersect(candidates, list);
    }
    const partBytes = Buffer.from(part);
    for (const term of candidates) {
      const holdsPart =
        term < this.size
          ? this.numberTerms.includes(term, partBytes)
          : this.otherTerms[term - this.size]!.includes(part);
      if (!holdsPart) continue;
      if (!holdsText(term)) return undefined;
      found.push(term);
    }
    return found;
  }

  /** The ascending union of the terms' slots (a number's term is its own slot). */
  private union(terms: Int32Array): Int32Array {
    const postingOf = (term: number) =>
      term < this.size ? Int32Array.of(term) : this.postings[term - this.size]!;
    if (terms.length === 1) return postingOf(terms[0]!);
    let total = 0;
    for (const term of terms) total += term < this.size ? 1 : postingOf(term).length;
    if (total * 8 < this.size) {
      const all = new Int32Array(total);
      let at = 0;
      for (const term of terms) {
        if (term < this.size) all[at++] = term;
        else {
          all.set(postingOf(term), at);
          at += postingOf(term).length;
        }
      }
      all.sort();
      return all.filter((slot, i) => i === 0 || slot !== all[i - 1]);
    }
    const isMatch = new Uint8Array(this.size);
    for (const term of terms) {
      if (term < this.size) isMatch[term] = 1;
      else for (const slot of postingOf(term)) isMatch[slot] = 1;
    }
    let count = 0;
    for (const bit of isMatch) count += bit;
    const slots = new Int32Array(count);
    let at = 0;
    for (let slot = 0; slot < this.size; slot++) if (isMatch[slot]) slots[at++] = slot;
    return slots;
  }
}

/** The list fields, slot by slot. */
interface IndexRows {
  /** 16 bytes per slot. */
  ids: Buffer;
  friendlyNumbers: StringColumn;
  descriptions: StringColumn;
  /** Each slot's status, as an index into `statuses`. */
  statusOf: Uint8Array | Uint16Array | Int32Array;
  statuses: string[];
  conclusionOf: Uint8Array | Uint16Array | Int32Array;
  conclusions: string[];
}

interface IndexParts {
  rows: IndexRows;
  numberTerms: StringColumn;
  otherTerms: string[];
  postings: Int32Array[];
  trigrams: Map<string, Int32Array>;
  shortTerms: Int32Array;
  orders: Record<SortColumn, Int32Array>;
}

interface JobRow {
  id: string;
  friendly_number: string;
  status: string;
  conclusion: string;
  description: string;
}

/** Runs a query through a cursor, yielding its rows FETCH_SIZE at a time. */
async function* fetchAll<T>(tx: Pick<Db, 'execute'>, query: SQL) {
  const cursor = sql.identifier(`jobs_index_${Math.random().toString(36).slice(2)}`);
  await tx.execute(sql`declare ${cursor} no scroll cursor for ${query}`);
  for (;;) {
    const rows = await queryRows<T>(tx, sql`fetch ${sql.raw(String(FETCH_SIZE))} from ${cursor}`);
    if (rows.length === 0) break;
    yield rows;
  }
  await tx.execute(sql`close ${cursor}`);
}

/** The distinct values of a column, each with its index in order of first appearance. */
class DistinctValues {
  readonly values: string[] = [];
  private readonly indexes = new Map<string, number>();

  indexOf(value: string): number {
    let index = this.indexes.get(value);
    if (index === undefined) {
      index = this.values.length;
      this.indexes.set(value, index);
      this.values.push(value);
    }
    return index;
  }
}

/** Collects the jobs slot by slot, then assembles the index's parts. */
class Builder {
  readonly statuses = new DistinctValues();
  readonly conclusions = new DistinctValues();
  private size = 0;
  private readonly ids: string[] = [];
  private readonly numberTerms = new StringColumn();
  private readonly friendlyNumbers = new StringColumn();
  private readonly descriptions = new StringColumn();
  private readonly slotByNumber = new Map<string, number>();
  private readonly words = new DistinctValues();
  private readonly wordSlots: IntList[] = [];
  private readonly statusOf = new IntList();
  private readonly conclusionOf = new IntList();
  private readonly trigramTerms = new Map<string, IntList>();
  private readonly shortTerms = new IntList();

  add(row: JobRow) {
    const slot = this.size++;
    const numberTerm = row.friendly_number.toLowerCase();
    this.ids.push(row.id.replaceAll('-', ''));
    this.numberTerms.push(numberTerm);
    this.addTrigrams(numberTerm, slot);
    this.friendlyNumbers.push(row.friendly_number);
    this.descriptions.push(row.description);
    this.slotByNumber.set(row.friendly_number, slot);
    this.statusOf.push(this.statuses.indexOf(row.status));
    this.conclusionOf.push(this.conclusions.indexOf(row.conclusion));
    for (const word of row.description.toLowerCase().split(' ')) {
      if (!word) continue;
      const slots = (this.wordSlots[this.words.indexOf(word)] ??= new IntList());
      if (slots.last() !== slot) slots.push(slot);
    }
  }

  slotOf(friendlyNumber: string) {
    return this.slotByNumber.get(friendlyNumber)!;
  }

  /** Terms arrive in ascending order, so each trigram's list stays ascending. */
  private addTrigrams(term: string, id: number) {
    if (term.length < 3) this.shortTerms.push(id);
    for (let i = 0; i + 3 <= term.length; i++) {
      const trigram = term.slice(i, i + 3);
      let list = this.trigramTerms.get(trigram);
      if (!list) this.trigramTerms.set(trigram, (list = new IntList()));
      if (list.last() !== id) list.push(id);
    }
  }

  /** `statuses` and `conclusions` hold the distinct values in the database's order. */
  finish(statuses: string[], conclusions: string[], byDescription: Int32Array): IndexParts {
    const size = this.size;
    const ids = Buffer.alloc(size * 16);
    this.ids.forEach((hex, slot) => ids.write(hex, slot * 16, 'hex'));
    const otherTerms = [...this.words.values];
    const postings = this.wordSlots.map((slots) => slots.toArray());

    // Each status is a term too, and the status order is the slots grouped by status.
    const grouped = (sorted: string[], of: IntList, values: DistinctValues) => {
      const valueOf = of.toArray();
      const sortedIndex = values.values.map((value) => sorted.indexOf(value));
      const groups = sorted.map(() => new IntList());
      valueOf.forEach((value, slot) => groups[sortedIndex[value]!]!.push(slot));
      const order = new Int32Array(size);
      let at = 0;
      groups.forEach((group, g) => {
        const slots = group.toArray();
        otherTerms.push(sorted[g]!.toLowerCase());
        postings.push(slots);
        order.set(slots, at);
        at += slots.length;
      });
      // One byte per slot when it can: the sort reads these at random, and small arrays
      // stay in the processor's cache.
      const Values =
        sorted.length <= 256 ? Uint8Array : sorted.length <= 65536 ? Uint16Array : Int32Array;
      const valueOfSlot = new Values(size);
      for (let slot = 0; slot < size; slot++) valueOfSlot[slot] = sortedIndex[valueOf[slot]!]!;
      return { order, valueOf: valueOfSlot };
    };
    const status = grouped(statuses, this.statusOf, this.statuses);
    const conclusion = grouped(conclusions, this.conclusionOf, this.conclusions);
    otherTerms.forEach((term, i) => this.addTrigrams(term, size + i));

    return {
      rows: {
        ids,
        friendlyNumbers: this.friendlyNumbers.seal(),
        descriptions: this.descriptions.seal(),
        statusOf: status.valueOf,
        statuses,
        conclusionOf: conclusion.valueOf,
        conclusions,
      },
      numberTerms: this.numberTerms.seal(),
      otherTerms,
      postings,
      shortTerms: this.shortTerms.toArray(),
      trigrams: new Map(
        Array.from(this.trigramTerms, ([trigram, list]) => [trigram, list.toArray()]),
      ),
      orders: {
        friendlyNumber: Int32Array.from({ length: size }, (_, i) => i),
        status: status.order,
        conclusion: conclusion.order,
        description: byDescription,
      },
    };
  }
}
