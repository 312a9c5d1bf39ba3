import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { generateSync } from 'otplib';
import {
  DESKTOP,
  expect,
  expectNoAxeViolations,
  PHONE,
  expectFitsWidth,
  signIn,
  test,
} from './fixtures';
import { bearer, PASSWORDS } from './people';

const PASSWORD = 'a-good-password';

/**
 * A new account (no role), made through the API: each test its own. Its name sorts after the
 * seeded ones, so the users grid of other tests keeps those in view; `remove` deletes it.
 */
async function newAccount(request: APIRequestContext) {
  const email = `zz-e2e-${randomBytes(4).toString('hex')}@example.com`;
  const res = await request.post('/api/auth/register', { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  const { jwt } = await res.json();
  const remove = async () => {
    const headers = await bearer(request, 'admin');
    const id = JSON.parse(atob(jwt.split('.')[1]!)).sub as string;
    expect((await request.delete(`/api/users/${id}`, { headers })).status()).toBe(204);
  };
  return { email, remove };
}

/**
 * The authenticator app's code of the next 30-second step: the server takes a step either
 * side of its own, and each step once, so the code that confirmed the app is never reused.
 */
const nextCode = (secret: string) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

async function logout(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Logout' })
    .click();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
}

test('an authenticator app is set up from the profile, and sign-in then asks for its code', async ({
  page,
  request,
  consoleErrors,
}) => {
  await page.setViewportSize(DESKTOP);
  const { email, remove } = await newAccount(request);
  await signIn(page, email, PASSWORD);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Security' })
    .click();
  await expect(page.getByRole('heading', { name: 'Sign-in security' })).toBeVisible();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await page.getByTestId('authenticator-secret').textContent())!;
  await expectNoAxeViolations(page, 'the authenticator set-up');

  const setup = page.getByRole('form', { name: 'Set up an authenticator app' });
  await setup.getByLabel('Code').fill('000000');
  await setup.getByRole('button', { name: 'Turn on' }).click();
  await expect(setup.getByText('This code is not valid (or was already used).')).toBeVisible();
  // The shared handler logs the refusal with its context.
  expect(consoleErrors.splice(0)).toEqual([
    expect.stringContaining('Error changing your authenticator app'),
  ]);
  await setup.getByLabel('Code').fill(generateSync({ secret }));
  await setup.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('10 recovery codes left.', { exact: false })).toBeVisible();

  await logout(page);
  await page.goto('/login');
  await page.getByLabel('Username').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  const step = page.getByRole('form', { name: 'Second step' });
  await expect(step).toBeVisible();
  await page.setViewportSize(PHONE);
  await expectFitsWidth(page, 'the second step on a phone');
  await step.getByLabel('Code').fill(nextCode(secret));
  await step.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  await remove();
});

test('a passkey is registered with the browser’s authenticator, and signs in alone', async ({
  browser,
  request,
}) => {
  // WebAuthn needs a domain name: the server's loopback address is reached as localhost.
  const baseURL = process.env.E2E_BASE_URL!.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL, viewport: DESKTOP });
  const page = await context.newPage();
  const devtools = await context.newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const { email, remove } = await newAccount(request);
  await signIn(page, email, PASSWORD);
  await page.goto('/account');
  const add = page.getByRole('form', { name: 'Add a passkey' });
  await add.getByLabel('Passkey name').fill('This laptop');
  await add.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('list', { name: 'Passkeys' })).toContainText('This laptop');
  const { credentials } = await devtools.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);

  await logout(page);
  await page.goto('/login');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto('/account');
  await expect(page.getByRole('list', { name: 'Passkeys' })).not.toContainText('last used never');
  await context.close();
  await remove();
});

test('a personal access token calls the API for its routes only, until it is revoked', async ({
  page,
  request,
}) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'contributor', PASSWORDS.contributor!);
  await page.goto('/account');
  const form = page.getByRole('form', { name: 'New access token' });
  const name = `Script ${randomBytes(3).toString('hex')}`;
  await form.getByLabel('Token name').fill(name);
  await form.getByRole('checkbox', { name: 'GET /api/books', exact: true }).check();
  await form.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByTestId('new-access-token').textContent())!;
  expect(token).toMatch(/^pat_/);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('list', { name: 'Access tokens' })).toContainText(name);

  const authorization = `Bearer ${token}`;
  expect((await request.get('/api/books', { headers: { authorization } })).status()).toBe(200);
  const write = await request.post('/api/books/add', {
    headers: { authorization },
    data: { title: 'Not by this token' },
  });
  expect(write.status()).toBe(403);
  expect((await write.json()).code).toBe('TOKEN_SCOPE');

  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  await page
    .getByRole('dialog', { name: 'Revoke access token' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByText('No access tokens yet')).toBeVisible();
  expect((await request.get('/api/books', { headers: { authorization } })).status()).toBe(401);
});
