import type { JobSample } from '../../db/schema/jobs';

/**
 * A deterministic generator of laboratory jobs (load-test data): the same seed and job
 * number always give the same job, so a count of N always gives the same data.
 */

/** mulberry32: a small, fast, seedable PRNG (good enough for test data, not for secrets). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const JOB_STATUSES = [
  'Received',
  'In progress',
  'On hold',
  'Completed',
  'Reported',
  'Cancelled',
];
export const JOB_CONCLUSIONS = ['Pass', 'Fail', 'Inconclusive', 'Pending', 'Out of specification'];

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'br',
  'cl',
  'pr',
  'st',
  'tr',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ia', 'eo', 'ou'];
const CODAS = ['', 'n', 'r', 's', 'l', 'x', 'nt', 'st'];

/** A few thousand pronounceable words, the same every time, plus the lab's own terms. */
export const VOCABULARY: string[] = (() => {
  const random = prng(7);
  const words = new Set([
    'sample',
    'batch',
    'assay',
    'stability',
    'potency',
    'purity',
    'residue',
    'screening',
    'water',
    'soil',
    'serum',
    'plasma',
    'urine',
    'tablet',
    'capsule',
    'solution',
    'extract',
    'filter',
    'calibration',
    'validation',
    'retest',
    'urgent',
    'routine',
    'client',
    'audit',
  ]);
  while (words.size < 3000) {
    const syllables = 2 + Math.floor(random() * 2);
    let word = '';
    for (let i = 0; i < syllables; i++) {
      const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
      word += pick(ONSETS) + pick(VOWELS) + (i === syllables - 1 ? pick(CODAS) : '');
    }
    words.add(word);
  }
  return [...words];
})();

const ANALYTES: { name: string; unit: string; min: number; max: number; limit: number }[] = [
  { name: 'Lead', unit: 'mg/kg', min: 0, max: 12, limit: 10 },
  { name: 'Cadmium', unit: 'mg/kg', min: 0, max: 2, limit: 1.5 },
  { name: 'Mercury', unit: 'µg/L', min: 0, max: 8, limit: 6 },
  { name: 'Arsenic', unit: 'µg/L', min: 0, max: 15, limit: 10 },
  { name: 'Nitrate', unit: 'mg/L', min: 0, max: 60, limit: 50 },
  { name: 'pH', unit: '', min: 5.5, max: 9, limit: 8.5 },
  { name: 'Glucose', unit: 'mmol/L', min: 3, max: 9, limit: 7 },
  { name: 'Cholesterol', unit: 'mmol/L', min: 3, max: 7, limit: 5.2 },
  { name: 'Moisture', unit: '%', min: 1, max: 14, limit: 12 },
  { name: 'Assay', unit: '%', min: 94, max: 103, limit: 102 },
  { name: 'Total coliforms', unit: 'CFU/100 mL', min: 0, max: 5, limit: 1 },
  { name: 'Turbidity', unit: 'NTU', min: 0, max: 6, limit: 4 },
];
const TASKS = ['Heavy metals', 'Nutrients', 'Microbiology', 'Physical', 'Chemistry', 'Identity'];

/** `J-0001234`: the human number of the job at 1-based position `n`. */
export const friendlyNumberOf = (n: number) => `J-${String(n).padStart(7, '0')}`;

export interface GeneratedJob {
  friendlyNumber: string;
  status: string;
  conclusion: string;
  description: string;
  samples: JobSample[];
}

/** The job at 1-based position `n`: the same every time for the same `n`. */
export function generateJob(n: number): GeneratedJob {
  const random = prng(n * 2654435761);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

  const targetLength = between(40, 120);
  let description = '';
  while (description.length < targetLength) {
    const word = pick(VOCABULARY);
    if ((description ? description.length + 1 : 0) + word.length > 120) break;
    description = description ? `${description} ${word}` : word;
  }
  description = description.charAt(0).toUpperCase() + description.slice(1);

  const samples: JobSample[] = Array.from({ length: between(1, 5) }, (_, s) => ({
    friendlyNumber: `${friendlyNumberOf(n)}-S${s + 1}`,
    tasks: Array.from({ length: between(1, 4) }, () => ({
      name: pick(TASKS),
      results: Array.from({ length: between(1, 5) }, () => {
        const analyte = pick(ANALYTES);
        const value = analyte.min + random() * (analyte.max - analyte.min);
        return {
          analyte: analyte.name,
          formatted: `${value.toFixed(2)}${analyte.unit ? ` ${analyte.unit}` : ''}`,
          conclusion: value > analyte.limit ? 'Fail' : 'Pass',
        };
      }),
    })),
  }));
  return {
    friendlyNumber: friendlyNumberOf(n),
    status: pick(JOB_STATUSES),
    conclusion: pick(JOB_CONCLUSIONS),
    description,
    samples,
  };
}
