import { test as base, expect, type Page } from '@playwright/test';

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

/** Signs in through the login form and waits until the app has let the user in. */
export async function signIn(page: Page, username: string, password: string) {
  await submitLogin(page, username, password);
  await page.waitForURL((url) => url.pathname !== '/login');
}
