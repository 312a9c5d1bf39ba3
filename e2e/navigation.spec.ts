import { E2E_ADMIN_PASSWORD } from './accounts';
import {
  DESKTOP,
  expect,
  expectFitsWidth,
  expectNoAxeViolations,
  expectUsable,
  inDarkScheme,
  PHONE,
  signIn,
  test,
} from './fixtures';

test.use({ viewport: { width: 390, height: 844 } });

test('on a phone the banner takes two lines and the navigation folds into a Menu', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
  const banner = page.getByRole('note');
  const lines = await banner.evaluate((element) => {
    const style = getComputedStyle(element);
    const text =
      element.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return Math.round(text / parseFloat(style.lineHeight));
  });
  expect(lines).toBeLessThanOrEqual(2);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Login' })).toBeHidden();

  const menuButton = nav.getByRole('button', { name: 'Menu' });
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await menuButton.click();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('dialog', { name: 'Menu' }).getByRole('navigation', {
    name: 'Main menu',
  });
  await expect(menu.getByRole('link')).toHaveText(['Home', 'Login']);
  // Escape closes it, and the keyboard is back on the Menu button.
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();

  await menuButton.click();
  await menu.getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(menu).toBeHidden();
});

test('a signed-in user on a phone reaches every screen and logs out from the Menu', async ({
  page,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const menuButton = page.getByRole('navigation', { name: 'Main' }).getByRole('button', {
    name: 'Menu',
  });
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menuButton.click();
  await expect(menu.getByRole('link')).toContainText([
    'Home',
    'Roles',
    'Users',
    'Manage...',
    'Job',
    'Routes',
  ]);
  await expect(menu.getByRole('list', { name: 'Experimental' })).toBeVisible();
  await menu.getByRole('link', { name: 'Job' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Jobs');

  await menuButton.click();
  await menu.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, visitor');
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
});

test('on a wide screen every link is in the bar and there is no Menu button', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Menu' })).toBeHidden();
});

test('the dropdowns work by keyboard: Enter opens, Tab reaches the links, Escape goes back', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const entities = page.getByRole('navigation', { name: 'Main' }).getByRole('button', {
    name: 'Entities',
  });
  await entities.focus();
  await page.keyboard.press('Enter');
  await expect(entities).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('navigation', { name: 'Entities' });
  await expect(panel).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('link', { name: 'Manage...' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(entities).toBeFocused();
  await expect(entities).toHaveAttribute('aria-expanded', 'false');

  await page.keyboard.press('Tab');
  const experimental = page.getByRole('button', { name: 'Experimental' });
  await expect(experimental).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Experimental' })).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/lims\/jobs$/);
});

test('every signed-out page passes axe and fits at 1280 and 390 px', async ({ page }) => {
  for (const path of ['/', '/login', '/register', '/forgot-password', '/mexico', '/no-such-page']) {
    await page.goto(path);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    await expectUsable(page, path);
  }
  // The sign-in forms with what their checks say, and a refused sign-in.
  for (const [path, button] of [
    ['/login', 'Login'],
    ['/register', 'Register'],
  ] as const) {
    await page.goto(path);
    await page.getByRole('button', { name: button }).click();
    await expect(page.locator('[aria-invalid=true]').first()).toBeVisible();
    await expectUsable(page, `${path} with its errors`);
  }
  await page.goto('/login');
  await page.getByLabel('Username').fill('nobody');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expectUsable(page, '/login refused');
});

test('the signed-in navigation passes axe with its dropdowns and its Menu open', async ({
  page,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  // An entity with a category, so the Entities dropdown shows a category heading too.
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const name = `axe${Date.now()}`;
  const created = await page.request.post('/api/entities', {
    headers: { authorization: `Bearer ${token}` },
    data: { name, category: 'Lab', fields: [{ name: 'code', label: 'Code' }] },
  });
  expect(created.ok()).toBe(true);
  await page.reload();

  await page.setViewportSize(DESKTOP);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const dropdown of ['Entities', 'Experimental']) {
    await nav.getByRole('button', { name: dropdown }).click();
    await expect(page.getByRole('navigation', { name: dropdown })).toBeVisible();
    if (dropdown === 'Entities')
      await expect(page.getByRole('navigation', { name: dropdown }).getByText('Lab')).toBeVisible();
    await expectNoAxeViolations(page, `the ${dropdown} dropdown`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: dropdown })).toBeHidden();
  }

  // A hovered link keeps its contrast.
  await nav.getByRole('link', { name: 'Users' }).hover();
  await expectNoAxeViolations(page, 'a hovered navigation link');
  // The wide bar in the dark scheme too (expectUsable scans it at the phone width).
  await inDarkScheme(page, async () => {
    await expectNoAxeViolations(page, 'a hovered navigation link, dark');
    await nav.getByRole('button', { name: 'Entities' }).click();
    await expect(page.getByRole('navigation', { name: 'Entities' })).toBeVisible();
    await expectNoAxeViolations(page, 'the Entities dropdown, dark');
    await page.keyboard.press('Escape');
  });

  await page.setViewportSize(PHONE);
  await nav.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByText('Lab', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page, 'the phone Menu');
  await expectFitsWidth(page, 'the phone Menu');
});
