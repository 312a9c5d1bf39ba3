/** What one filter word matches: its terms, their postings, and jobs by number. */
export interface Word {
  word: string;
  terms: number[];
  /** Postings of its terms (a job holding two of them counts twice). */
  postings: number;
  /** The most postings of one of its terms. */
  largest: number;
  /** Whether it can match a number only at its start (see job_number_characters). */
  prefixOnly: boolean;
  /** Jobs whose number holds it; null when not counted (under 3 characters, not a prefix). */
  numbers: number | null;
  /** The search's generation it was resolved at (0016_job_search_generation.sql). */
  generation: number;
}

/** Past this many words, or this many of their terms in all, the cache starts over (a few MB). */
const MAX_WORDS = 10_000;
const MAX_TERMS = 100_000;
/** A word of more terms than this (a fragment such as `e`) is resolved each time rather than kept. */
const MAX_TERMS_OF_A_WORD = 1000;

/**
 * Filter words resolved earlier on one database. Resolving a word was a statement of its
 * own before each filtered page (a third of PostgreSQL's time under `bench:load`, and a
 * second wait for the pool). A kept word is offered only while it was resolved at the
 * newest generation of the search seen here, and the caller still checks that the page
 * it reads with it reports that generation: the jobs may have changed on any server.
 */
export class ResolvedWords {
  private words = new Map<string, Word>();
  /** The terms of the kept words, in all. */
  private terms = 0;
  private newest = 0;

  /** The word as resolved at the newest generation seen, when kept. */
  get(word: string): Word | undefined {
    const kept = this.words.get(word);
    return kept?.generation === this.newest ? kept : undefined;
  }

  /**
   * Keeps a freshly resolved word. A word known to match nothing is not kept: the list
   * answers it without reading a page, so nothing would check its generation.
   */
  keep(word: Word): void {
    this.saw(word.generation);
    const matches = word.postings > 0 || (word.numbers ?? 0) > 0;
    if (!matches || word.terms.length > MAX_TERMS_OF_A_WORD) return;
    if (this.words.size >= MAX_WORDS || this.terms + word.terms.length > MAX_TERMS) {
      this.words.clear();
      this.terms = 0;
    }
    this.terms += word.terms.length - (this.words.get(word.word)?.terms.length ?? 0);
    this.words.set(word.word, word);
  }

  /** A statement reported the search's generation (undefined: it read none). */
  saw(generation: number | undefined): void {
    if (generation !== undefined && generation > this.newest) this.newest = generation;
  }
}
