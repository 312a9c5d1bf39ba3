import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './accounts';
import { signIn, trackRequests } from './fixtures';

/** The passwords of the seeded accounts the browser tests sign in as. */
export const PASSWORDS: Record<string, string> = {
  admin: E2E_ADMIN_PASSWORD,
  contributor: 'contributor123',
  viewer: 'viewer123',
};

/** The bearer header of `username`, signed in through the API. */
export async function bearer(request: APIRequestContext, username: string) {
  const login = await request.post('/api/auth/login', {
    data: { username, password: PASSWORDS[username] },
  });
  return { authorization: `Bearer ${(await login.json()).jwt}` };
}

/** A second person: their own browser context (own storage, own session), signed in. */
export async function secondPerson(browser: Browser, username: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  trackRequests(page);
  await signIn(page, username, PASSWORDS[username]!);
  return page;
}
