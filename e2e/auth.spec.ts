import { E2E_ADMIN_PASSWORD } from './accounts';
import { expect, signIn, submitLogin, test } from './fixtures';

const unsignedToken = (claims: object) =>
  `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.x`;

test.describe('signing in and out', () => {
  test('a viewer signs in, sees the private navigation, and logs out', async ({ page }) => {
    await signIn(page, 'viewer', 'viewer123');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, viewer');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const item of ['Roles', 'Users', 'Routes']) {
      await expect(nav.getByRole('link', { name: item })).toBeVisible();
    }
    await expect(nav.getByRole('button', { name: 'Entities' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Experimental' })).toBeVisible();

    const refreshToken = await page.evaluate(() => localStorage.getItem('refreshToken'));
    await nav.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    // The refresh token was revoked on the server.
    await expect
      .poll(async () =>
        (await page.request.post('/api/auth/refresh-token', { data: { refreshToken } })).status(),
      )
      .toBe(401);
  });

  for (const [path, heading] of [
    ['/books', 'Books'],
    ['/routes', 'Routes'],
    ['/entities', 'Entities'],
    ['/lims/jobs', 'Jobs'],
  ] as const) {
    test(`Logout on ${path} (a lazily loaded page) ends on the home page`, async ({ page }) => {
      await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      const revoked = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: 'Logout' })
        .click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
      // The sign-out is over once its revocation has answered: still home, not on /login.
      await revoked;
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
      expect(new URL(page.url()).pathname).toBe('/');
    });
  }

  test('a wrong password says authentication failed', async ({ page }) => {
    await submitLogin(page, 'viewer', 'wrong-password');
    await expect(
      page.getByText('Authentication failed. Please check your credentials.'),
    ).toBeVisible();
  });

  test('a private page sends a visitor to /login, and back there after signing in', async ({
    page,
  }) => {
    await page.goto('/routes');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/routes$/);
    await expect(page.getByRole('heading', { name: 'Routes', level: 1 })).toBeVisible();
  });

  test('registration creates an account and signs it in', async ({ page }) => {
    const email = `e2e-${Date.now()}@example.com`;
    await page.goto('/login');
    await page.getByRole('link', { name: 'Register' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a-good-password');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hello, ${email}`);
  });

  test('an expired access token is refreshed when the app loads', async ({ page, request }) => {
    const { refreshToken } = await (
      await request.post('/api/auth/login', {
        data: { username: 'contributor', password: 'contributor123' },
      })
    ).json();
    const expired = unsignedToken({ sub: 'x', username: 'contributor', exp: 1_000_000 });
    await page.goto('/mexico');
    await page.evaluate(
      ([accessToken, refresh]) => {
        localStorage.setItem('accessToken', accessToken!);
        localStorage.setItem('refreshToken', refresh!);
      },
      [expired, refreshToken],
    );
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, contributor');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('accessToken')))
      .not.toBe(expired);
    const stored = await page.evaluate(() => localStorage.getItem('refreshToken'));
    expect(stored).not.toBe(refreshToken);
  });
});

test.describe('the route-permission editor', () => {
  test('an admin grants a route to viewers, and takes it back', async ({ page, request }) => {
    const viewerToken = (
      await (
        await request.post('/api/auth/login', {
          data: { username: 'viewer', password: 'viewer123' },
        })
      ).json()
    ).jwt;
    const viewerListsRoles = async () =>
      (
        await request.get('/api/roles', { headers: { authorization: `Bearer ${viewerToken}` } })
      ).status();
    expect(await viewerListsRoles()).toBe(403);

    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Routes' })
      .click();
    const roles = page.getByRole('table', { name: 'roles' });
    await roles.getByRole('button', { name: 'Edit GET /api/roles', exact: true }).click();
    await page
      .getByRole('group', { name: 'Roles allowed on GET /api/roles', exact: true })
      .getByRole('button', { name: 'viewer' })
      .click();
    await roles.getByRole('button', { name: 'Save GET /api/roles', exact: true }).click();
    await expect(
      page.getByRole('group', { name: 'Roles allowed on GET /api/roles', exact: true }),
    ).toHaveText('adminviewer');
    expect(await viewerListsRoles()).toBe(200);

    await roles.getByRole('button', { name: 'Edit GET /api/roles', exact: true }).click();
    await page
      .getByRole('group', { name: 'Roles allowed on GET /api/roles', exact: true })
      .getByRole('button', { name: 'viewer' })
      .click();
    await roles.getByRole('button', { name: 'Save GET /api/roles', exact: true }).click();
    await expect(
      page.getByRole('group', { name: 'Roles allowed on GET /api/roles', exact: true }),
    ).toHaveText('admin');
    expect(await viewerListsRoles()).toBe(403);
  });

  test('a viewer on /routes is told their role does not allow reading the routes', async ({
    page,
  }) => {
    await signIn(page, 'viewer', 'viewer123');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Routes' })
      .click();
    await expect(page.getByText('Your role does not allow reading the routes.')).toBeVisible();
    await expect(page.getByText('You are not allowed to perform this action')).toHaveCount(0);
  });
});

test.describe('Google sign-in', () => {
  test('round trip through the OpenID Connect provider signs a new user in with no role', async ({
    page,
  }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    // The provider's own sign-in screen (oidc-provider's development login).
    await page.locator('input[name="login"]').fill('ada');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click(); // consent
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, ada@example.com');
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBeTruthy();
  });
});
