import { test as base, expect } from '@playwright/test';

/**
 * The tests' `test`: its baseURL is the server that globalSetup started, and it fails a
 * test whose page logged an error (a Content-Security-Policy violation, a crash).
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
