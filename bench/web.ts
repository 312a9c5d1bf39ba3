/**
 * `npm run bench:web`: the first load of the built app as Lighthouse (mobile: a mid-range
 * phone on slow 4G, simulated) sees it, on /, /login, /books and /lims/jobs, each in the
 * light and the dark colour scheme (chosen in localStorage, as the theme's switch keeps it).
 * Starts the built server on a fresh data folder, then for each page runs Lighthouse
 * BENCH_WEB_RUNS times (default 3; BENCH_WEB_PAGES picks pages), each in a new Chromium
 * profile so nothing is cached; the signed-in pages get the admin's tokens (and the dark
 * pages their scheme) in localStorage first, from a page that loads no script. Prints per
 * page the median of each figure and the worst performance score, then the audits that
 * cost points, and the home page's scripts against the budget (DESIGN: 120 KB of compressed
 * JS, counted as Lighthouse and webpack count, in KiB).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Result as LighthouseResult } from 'lighthouse';
import { MODE_STORAGE_KEY } from '../common/colorScheme';
import { signInThroughApi, startBuiltServer } from './builtServer';

/** BENCH_WEB_PAGES=/login,/books measures only those pages. */
const ONLY_PAGES = process.env.BENCH_WEB_PAGES?.split(',');
const PAGES = [
  { path: '/', signedIn: false },
  { path: '/login', signedIn: false },
  { path: '/books', signedIn: true },
  { path: '/lims/jobs', signedIn: true },
].filter(({ path }) => !ONLY_PAGES || ONLY_PAGES.includes(path));
const SCHEMES = ['light', 'dark'] as const;
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const ADMIN_PASSWORD = 'bench-admin-password';
/** The home page's scripts, at most: 120 KiB of brotli. */
const HOME_BUDGET_BYTES = 120 * 1024;

/** The size of a built script as the server sends it (brotli, made at build time). */
const brotliBytes = (url: string) =>
  statSync(path.join('dist/public', `${new URL(url).pathname}.br`)).size;

type Run = {
  scores: Record<(typeof CATEGORIES)[number], number>;
  scriptBytes: number;
  /** The scripts' URLs: their brotli bodies are weighed against the budget. */
  scripts: string[];
  encodings: Set<string>;
  lcpMs: number;
  lostPoints: string[];
};

async function measure(
  url: string,
  tokens: { jwt: string; refreshToken: string } | undefined,
  scheme: (typeof SCHEMES)[number],
): Promise<Run> {
  // Imported here, not at the top: tsx would compile them into this file's CommonJS and
  // rename the functions Lighthouse sends into the page, which then fail there.
  const { default: lighthouse } = await import('lighthouse');
  const { launch } = await import('chrome-launcher');
  const puppeteer = await import('puppeteer-core');
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic'],
  });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    if (tokens || scheme === 'dark') {
      await page.goto(new URL('/api/health', url).href);
      await page.evaluate(
        ({ kept, modeKey, dark }) => {
          if (kept) {
            localStorage.setItem('accessToken', kept.jwt);
            localStorage.setItem('refreshToken', kept.refreshToken);
          }
          if (dark) localStorage.setItem(modeKey, 'dark');
        },
        { kept: tokens, modeKey: MODE_STORAGE_KEY, dark: scheme === 'dark' },
      );
    }
    const encodings = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        encodings.add(response.headers()['content-encoding'] ?? 'none');
    });
    // The profile is new, so there is nothing to reset; resetting would drop the tokens.
    const result = await lighthouse(
      url,
      { logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: true },
      undefined,
      page,
    );
    await browser.disconnect();
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    return summarise(result.lhr, encodings);
  } finally {
    chrome.kill();
  }
}

function summarise(lhr: LighthouseResult, encodings: Set<string>): Run {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const requests = (lhr.audits['network-requests']?.details as {
    items: { url: string; resourceType?: string; transferSize?: number }[];
  }) ?? { items: [] };
  const lostPoints = CATEGORIES.flatMap((category) =>
    lhr.categories[category]!.auditRefs.flatMap((ref) => {
      const audit = lhr.audits[ref.id]!;
      if (ref.weight === 0 || audit.score === null || audit.score >= 1) return [];
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      return [`${category}: ${audit.id}${value}, score ${Math.round(audit.score * 100)}`];
    }),
  );
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [
        category,
        Math.round((lhr.categories[category]?.score ?? 0) * 100),
      ]),
    ) as Run['scores'],
    scriptBytes: requests.items
      .filter((item) => item.resourceType === 'Script')
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    scripts: requests.items.filter((item) => item.resourceType === 'Script').map(({ url }) => url),
    encodings,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    lostPoints,
  };
}

/** Lighthouse sometimes fails to record a trace ("Please run Lighthouse again"): once more. */
async function measureWithRetry(...args: Parameters<typeof measure>) {
  try {
    return await measure(...args);
  } catch (error) {
    console.warn(`  ${args[0]}: ${error instanceof Error ? error.message : error}; again`);
    return measure(...args);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  // Each signed-in run signs in anew: an access token lives 5 minutes, and a refresh token
  // is spent by its first use, so one sign-in for the whole run left the later pages
  // refused, with the 401 in their console.
  const server = await startBuiltServer({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    AUTH_RATE_LIMIT: '1000',
    PASSWORD_ATTEMPTS_PER_USER: '1000',
  });
  try {
    console.log(`Lighthouse (mobile, simulated slow 4G), ${RUNS} runs per page, medians:\n`);
    console.log(
      'page              JS (transferred)  encodings  LCP      perf (worst)  a11y  best practices  SEO',
    );
    const costs: string[] = [];
    let budget: string | undefined;
    for (const [{ path: pagePath, signedIn }, scheme] of PAGES.flatMap((page) =>
      SCHEMES.map((scheme) => [page, scheme] as const),
    )) {
      const runs: Run[] = [];
      for (let run = 0; run < RUNS; run++)
        runs.push(
          await measureWithRetry(
            server.base + pagePath,
            signedIn ? await signInThroughApi(server.base, 'admin', ADMIN_PASSWORD) : undefined,
            scheme,
          ),
        );
      const score = (category: (typeof CATEGORIES)[number]) =>
        median(runs.map((run) => run.scores[category]));
      const worst = runs.reduce((a, b) => (b.scores.performance < a.scores.performance ? b : a));
      const encodings = [...new Set(runs.flatMap((run) => [...run.encodings]))].join(',');
      console.log(
        [
          `${pagePath} ${scheme}`.padEnd(17),
          `${(median(runs.map((run) => run.scriptBytes)) / 1000).toFixed(1)} KB`.padEnd(17),
          encodings.padEnd(10),
          `${(median(runs.map((run) => run.lcpMs)) / 1000).toFixed(2)} s`.padEnd(8),
          `${score('performance')} (${worst.scores.performance})`.padEnd(13),
          String(score('accessibility')).padEnd(5),
          String(score('best-practices')).padEnd(15),
          String(score('seo')),
        ].join(' '),
      );
      costs.push(...worst.lostPoints.map((line) => `  ${pagePath} ${scheme} ${line}`));
      if (pagePath === '/' && scheme === 'light') {
        const home = runs[0]!.scripts.map(
          (url) => [new URL(url).pathname, brotliBytes(url)] as const,
        );
        const total = home.reduce((sum, [, bytes]) => sum + bytes, 0);
        budget = [
          `The home page's scripts: ${total.toLocaleString('en')} bytes of brotli, ` +
            `${(total / 1024).toFixed(1)} KiB of a 120 KiB budget ` +
            `(${total <= HOME_BUDGET_BYTES ? 'within' : 'OVER'})`,
          ...home.map(([file, bytes]) => `  ${file}: ${bytes.toLocaleString('en')}`),
        ].join('\n');
      }
    }
    if (budget) console.log(`\n${budget}`);
    console.log('\nAudits that cost points (the worst run of each page):');
    console.log(costs.length ? costs.join('\n') : '  none');
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
