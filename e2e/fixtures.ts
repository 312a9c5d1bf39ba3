import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page, type Request } from '@playwright/test';

/** Each page's requests on their way, but the event stream's, which stays open. */
const pendingRequests = new WeakMap<Page, Set<Request>>();

/** Counts `page`'s requests on their way (for waitForNetworkQuiet). */
export function trackRequests(page: Page) {
  const pending = new Set<Request>();
  pendingRequests.set(page, pending);
  page.on('request', (request) => {
    if (new URL(request.url()).pathname !== '/api/events') pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
}

/**
 * Resolves once `page` has had no request on its way for 500 ms: Playwright's
 * `networkidle`, but for the event stream, which a signed-in page keeps open.
 */
export async function waitForNetworkQuiet(page: Page) {
  const pending = pendingRequests.get(page)!;
  let quietSince = Date.now();
  await expect
    .poll(
      () => {
        if (pending.size > 0) quietSince = Date.now();
        return Date.now() - quietSince;
      },
      { intervals: [100] },
    )
    .toBeGreaterThanOrEqual(500);
}

/**
 * The tests' `test`: its baseURL is the server that globalSetup started, and it fails a
 * test whose page logged an error (a crash) or broke the Content-Security-Policy (even a
 * violation the page caught, such as a probe for `eval`). A test that expects an error
 * checks it in `consoleErrors` and removes it from there.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  consoleErrors: [
    async ({ page }, use) => {
      trackRequests(page);
      const errors: string[] = [];
      page.on('console', (message) => {
        // Only our own pages count: the stand-in sign-in provider's pages are not ours.
        const ours = message.location().url.startsWith(process.env.E2E_BASE_URL!);
        // An HTTP error answer is the browser's note, not a fault of the page.
        const httpError = message.text().startsWith('Failed to load resource');
        if (message.type() === 'error' && ours && !httpError) errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.exposeFunction('reportCspViolation', (directive: string, blocked: string) => {
        errors.push(`Content-Security-Policy violation: ${directive} (${blocked})`);
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as Record<string, (...args: string[]) => void>)
            .reportCspViolation!;
          report(event.effectiveDirective, event.blockedURI);
        });
      });
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Fills the login form and submits it, as a person would. */
export async function submitLogin(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/**
 * Signs in through the login form and waits until the app has let the user in. A server
 * busy hashing passwords on a loaded machine may shed the sign-in (503 `OVERLOADED`, "try
 * again in a few seconds"): like a person, this tries again, up to three times.
 */
export async function signIn(page: Page, username: string, password: string) {
  await submitLogin(page, username, password);
  const busy = page.getByText('The server is too busy right now; try again in a few seconds');
  for (let tries = 1; ; tries++) {
    // The one that loses the race is left to end with the test: its failure then is no news.
    const signedIn = page.waitForURL((url) => url.pathname !== '/login').then(() => true);
    const shed = busy.waitFor().then(
      () => false,
      () => signedIn,
    );
    signedIn.catch(() => undefined);
    if (await Promise.race([signedIn, shed])) return;
    if (tries === 3) throw new Error(`The server shed the sign-in of ${username} ${tries} times`);
    await page.getByRole('button', { name: 'Login' }).click();
  }
}

/** The two widths every screen is checked at: a desktop and a phone (iPhone 12-15). */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Each animation still running that will end (a loading bar's never does), by name and element. */
function finiteAnimationsRunning() {
  return document
    .getAnimations()
    .filter(
      (animation) =>
        animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity,
    )
    .map((animation) => {
      const target = (animation.effect as KeyframeEffect | null)?.target;
      const name =
        animation instanceof CSSTransition
          ? animation.transitionProperty
          : animation instanceof CSSAnimation
            ? animation.animationName
            : animation.id;
      return `${name} on ${target?.tagName.toLowerCase() ?? '?'}.${target?.className ?? ''}`;
    });
}

/**
 * Fails with every axe finding on the page as it is now (all of axe's default rules: WCAG
 * 2.1 A and AA plus its best practices, such as landmarks and heading order), each named
 * by rule and element so the failure says what to fix.
 */
export async function expectNoAxeViolations(page: Page, state: string) {
  // A dialog or a dropdown fading in has too little contrast for a moment: wait for the end
  // of every transition (not of endless ones, such as a loading bar).
  await expect
    .poll(() => page.evaluate(finiteAnimationsRunning), {
      message: `${state}: animations still running`,
      timeout: 15_000,
    })
    .toEqual([]);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const findings = violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact}): ${node.target.join(' ')}: ${node.any[0]?.message ?? node.failureSummary}`,
    ),
  );
  expect(findings, `axe findings on ${state}`).toEqual([]);
}

/**
 * Fails when the page scrolls sideways, or when a visible control (button, link, input,
 * checkbox, tab) is cut off by the viewport or by a box that hides its overflow. A control
 * inside a box that scrolls sideways itself (a grid's own scroller) counts as reachable.
 */
export async function expectFitsWidth(page: Page, state: string) {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) {
      found.push(`the page is ${root.scrollWidth} px wide in a ${window.innerWidth} px window`);
    }
    const controls = document.querySelectorAll<HTMLElement>(
      'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=checkbox], [role=tab], [role=combobox]',
    );
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      // Not shown: hidden, or see-through (MUI's switches and checkboxes lay a transparent
      // native input, wider than the switch, over what is drawn).
      const style = getComputedStyle(control);
      const hidden = style.visibility !== 'visible' || style.opacity === '0';
      if (box.width === 0 || box.height === 0 || hidden || control.closest('[aria-hidden=true]'))
        continue;
      let left = 0;
      let right = window.innerWidth;
      let reachable = false;
      for (let parent = control.parentElement; parent; parent = parent.parentElement) {
        const overflowX = getComputedStyle(parent).overflowX;
        if (overflowX === 'visible') continue;
        if (
          (overflowX === 'auto' || overflowX === 'scroll') &&
          parent.scrollWidth > parent.clientWidth
        ) {
          reachable = true;
          break;
        }
        const frame = parent.getBoundingClientRect();
        left = Math.max(left, frame.left);
        right = Math.min(right, frame.right);
      }
      if (reachable) continue;
      if (box.left < left - 1 || box.right > right + 1) {
        const name = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? '';
        found.push(`${control.tagName.toLowerCase()} "${name.slice(0, 40)}" is cut off`);
      }
    }
    return found;
  });
  expect(problems, `layout of ${state} at ${page.viewportSize()?.width} px`).toEqual([]);
}

/** Runs `check` at the desktop width, then again at the phone width, on the page as it is. */
export async function atBothWidths(page: Page, check: () => Promise<void>) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await check();
  }
}

/**
 * Runs `check` with the system's colour scheme dark (the app follows it unless a scheme was
 * chosen), then gives the page its light scheme back.
 */
export async function inDarkScheme(page: Page, check: () => Promise<void>) {
  const showing = (scheme: string) =>
    page.waitForFunction((name) => document.documentElement.classList.contains(name), scheme);
  await page.emulateMedia({ colorScheme: 'dark' });
  await showing('dark');
  try {
    await check();
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await showing('light');
  }
}

/**
 * The axe scan and the width check at the desktop width in the light colour scheme, then at
 * the phone width in the dark one (the page is the same at both widths, bar the
 * navigation: every screen is scanned in both schemes for the cost of two scans), where it
 * leaves the page, light again.
 */
export async function expectUsable(page: Page, state: string) {
  const check = async (scheme: string) => {
    await expectNoAxeViolations(page, `${state}, ${scheme}`);
    await expectFitsWidth(page, `${state}, ${scheme}`);
  };
  await page.setViewportSize(DESKTOP);
  await check('light');
  await page.setViewportSize(PHONE);
  await inDarkScheme(page, () => check('dark'));
}

/** Logs out through the navigation (at the desktop width, where Logout is in the bar). */
export async function logOut(page: Page) {
  await page.setViewportSize(DESKTOP);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Logout' })
    .click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Registers a new account through /register: a signed-in user with no role. */
export async function registerWithoutRole(page: Page) {
  await page.goto('/register');
  await page.getByLabel('Email').fill(`no-role-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}
