import en from '../src/i18n/locales/en.json';
import { E2E_ADMIN_PASSWORD } from './accounts';
import {
  atBothWidths,
  expect,
  expectFitsWidth,
  expectNoAxeViolations,
  PHONE,
  registerWithoutRole,
  signIn,
  test,
  waitForNetworkQuiet,
} from './fixtures';

test.describe('screens that know what the user may do', () => {
  test('a viewer sees the books but no Add Book and no Delete', async ({ page }) => {
    await signIn(page, 'viewer', 'viewer123');
    await page.goto('/books');
    const books = page.getByRole('list', { name: 'Books' }).getByRole('listitem');
    await expect(books).toHaveCount(10);
    await expect(page.getByRole('link', { name: 'Add Book' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  });

  test('a user with no role is told on /books that an administrator must give them one', async ({
    page,
  }) => {
    await registerWithoutRole(page);
    await page.goto('/books');
    await expect(page.getByText(en['common.needsRole'])).toHaveCount(1);
    // Every request the page makes has answered by now: none was refused with a toast.
    await waitForNetworkQuiet(page);
    await expect(page.getByText(en['toast.notAllowed'])).toHaveCount(0);
  });
});

test('a contributor edits a record, leaves the grid and comes back: the new value shows', async ({
  page,
  request,
}) => {
  const login = await request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  const headers = { authorization: `Bearer ${(await login.json()).jwt}` };
  const name = `Sample_${Date.now().toString(36)}`;
  expect(
    (
      await request.post('/api/entities', {
        headers,
        data: { name, description: '', fields: [{ name: 'label', label: 'Label' }] },
      })
    ).status(),
  ).toBe(201);
  await request.post(`/api/entity-records/${name}`, {
    headers,
    data: { fields: { label: 'before' } },
  });

  await signIn(page, 'contributor', 'contributor123');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const openGrid = async () => {
    await nav.getByRole('button', { name: 'Entities' }).click();
    await page.getByRole('navigation', { name: 'Entities' }).getByRole('link', { name }).click();
    return page.getByRole('grid', { name: `${name} records` });
  };
  let grid = await openGrid();
  await expect(grid.getByText('before')).toBeVisible();
  await grid.getByRole('button', { name: 'Edit record 1' }).click();
  await grid.getByRole('textbox').first().fill('after');
  await grid.getByRole('button', { name: 'Save record 1' }).click();
  await expect(grid.getByRole('button', { name: 'Edit record 1' })).toBeVisible();

  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, contributor');
  grid = await openGrid();
  await expect(grid.getByText('after')).toBeVisible();
  await expect(grid.getByText('before')).toHaveCount(0);
});

test('/entities/NoSuchEntity shows its one "not here" toast once', async ({
  page,
  consoleErrors,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  await page.goto('/entities/NoSuchEntity');
  await expect(page.getByText(en['toast.notFound']).first()).toBeVisible();
  // Every request of the page has answered by now: a second toast would be showing.
  await waitForNetworkQuiet(page);
  await expect(page.getByText(en['toast.notFound'])).toHaveCount(1);
  // Spec section 8: entity and record fetch errors are logged (with their context).
  expect(consoleErrors.splice(0).every((e) => e.startsWith('Error fetching'))).toBe(true);
});

test.describe('the routes editor', () => {
  test('passes axe and fits at 1280 and 390 px, read and in edit mode', async ({ page }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.goto('/routes');
    await expect(page.getByRole('heading', { name: 'books' })).toBeVisible();
    await atBothWidths(page, async () => {
      await expectNoAxeViolations(page, '/routes');
      await expectFitsWidth(page, '/routes');
      await page.getByRole('button', { name: 'Edit GET /api/books', exact: true }).click();
      await expect(
        page.getByRole('button', { name: 'Save GET /api/books', exact: true }),
      ).toBeVisible();
      await expectNoAxeViolations(page, '/routes with a route in edit mode');
      await expectFitsWidth(page, '/routes with a route in edit mode');
      await page.getByRole('button', { name: 'Cancel GET /api/books', exact: true }).click();
    });
  });

  test('on a phone each route is a card whose roles are edited in place', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.goto('/routes');
    await expect(page.getByRole('table')).toHaveCount(0);
    const books = page.getByRole('list', { name: 'books' });
    const route = books
      .getByRole('listitem')
      .filter({ has: page.getByText('GET /api/books', { exact: true }) });
    await expect(route).toHaveCount(1);
    await route.getByRole('button', { name: 'Edit GET /api/books', exact: true }).click();
    const roles = route.getByRole('group', { name: 'Roles allowed on GET /api/books' });
    const contributor = roles.getByRole('button', { name: 'contributor' });
    const before = await contributor.getAttribute('aria-pressed');
    await contributor.click();
    await expect(contributor).not.toHaveAttribute('aria-pressed', before!);
    await contributor.click();
    await expect(contributor).toHaveAttribute('aria-pressed', before!);
    await route.getByRole('button', { name: 'Save GET /api/books', exact: true }).click();
    await expect(page.getByText('Saved GET /api/books')).toBeVisible();
    await expect(
      route.getByRole('button', { name: 'Edit GET /api/books', exact: true }),
    ).toBeVisible();
  });

  test('a viewer is told on /routes that it is not theirs to read, at both widths', async ({
    page,
  }) => {
    await signIn(page, 'viewer', 'viewer123');
    await page.goto('/routes');
    await expect(page.getByRole('heading', { name: 'Routes' })).toBeVisible();
    await waitForNetworkQuiet(page);
    await atBothWidths(page, async () => {
      await expectNoAxeViolations(page, '/routes as a viewer');
      await expectFitsWidth(page, '/routes as a viewer');
    });
  });
});
