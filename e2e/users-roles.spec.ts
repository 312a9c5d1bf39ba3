import { E2E_ADMIN_PASSWORD } from './accounts';
import type { Locator, Page } from '@playwright/test';
import { expect, expectUsable, signIn, test, waitForNetworkQuiet } from './fixtures';
import { expectFocusShows, tabTo } from './keyboard';

/** The users grid's row of `username`. */
const userRow = (grid: Locator, username: string) =>
  grid.getByRole('row').filter({
    has: grid.page().locator('[role=gridcell][data-field=username]', {
      hasText: new RegExp(`^${username}$`),
    }),
  });

/**
 * By keyboard alone: Tab into the users grid, the arrows down to `username`'s row and
 * right to its cell in column `column` (0: Username).
 */
async function arrowToUser(page: Page, grid: Locator, username: string, column: number) {
  // The grid's Tab stop is its first heading: the selection's "Select all rows" box.
  await tabTo(page, grid.getByRole('checkbox', { name: 'Select all rows' }));
  await page.keyboard.press('ArrowRight');
  await expect(grid.getByRole('columnheader', { name: 'Username' })).toBeFocused();
  const row = userRow(grid, username);
  for (let i = 0; i < 30; i++) {
    if (await row.evaluate((element) => element.contains(document.activeElement))) break;
    await page.keyboard.press('ArrowDown');
  }
  for (let i = 0; i < column; i++) await page.keyboard.press('ArrowRight');
}

/** The signed-in user's bearer header, for setting up a test's own data through the API. */
async function authorization(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  return { authorization: `Bearer ${token}` };
}

test('an admin adds a role and a user with it, edits the user, toggles the role, and deletes both', async ({
  page,
}) => {
  const suffix = Date.now().toString(36);
  const roleName = `auditors-${suffix}`;
  const username = `alan-${suffix}`;
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Main' });

  // A role.
  await nav.getByRole('link', { name: 'Roles' }).click();
  await page.getByRole('link', { name: 'Add Role' }).click();
  await page.getByLabel('Name').fill(roleName);
  await page.getByRole('button', { name: 'Add Role' }).click();
  await expect(page.getByRole('list', { name: 'Roles' }).getByText(roleName)).toBeVisible();

  // A user with that role.
  await nav.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('link', { name: 'Add User' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('checkbox', { name: roleName }).check();
  await page.getByRole('button', { name: 'Add User' }).click();
  const grid = page.getByRole('grid', { name: 'Users' });
  const row = grid.getByRole('row').filter({ hasText: username });
  await expect(row).toContainText(roleName);

  // Inline edit of the email.
  await row.getByRole('button', { name: `Edit ${username}` }).click();
  const email = grid.locator(`input[value="${username}@example.com"]`);
  await email.fill(`${username}@changed.example`);
  await grid.getByRole('button', { name: `Save ${username}` }).click();
  await expect(
    grid.getByRole('row').filter({ hasText: `${username}@changed.example` }),
  ).toBeVisible();

  // The role off and on again in the assignment panel.
  await nav.getByRole('link', { name: 'Roles' }).click();
  await page.getByRole('link', { name: `Edit ${roleName}` }).click();
  const toggle = page.getByRole('switch', { name: `${username} has the role` });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();

  // Delete the user, then the role.
  await nav.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: `Delete ${username}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete user' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(grid.getByText(username)).toHaveCount(0);

  await nav.getByRole('link', { name: 'Roles' }).click();
  await page.getByRole('button', { name: `Delete ${roleName}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete role' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByRole('list', { name: 'Roles' }).getByText(roleName)).toHaveCount(0);
});

test('a viewer is told on /users that their role does not allow reading the users', async ({
  page,
}) => {
  const usersAsked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/users') usersAsked.push(r.url());
  });
  await signIn(page, 'viewer', 'viewer123');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByText('Your role does not allow reading the users.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add User' })).toHaveCount(0);
  // Every request the page makes has answered by now: the users were never asked for.
  await waitForNetworkQuiet(page);
  expect(usersAsked).toEqual([]);
  // The pointer away from the link it clicked: the refusal is what is checked here.
  await page.mouse.move(0, 400);
  await expectUsable(page, '/users refused to a viewer');
});

test('the admin user cannot be deleted from the grid', async ({ page }) => {
  const logs: string[] = [];
  page.on('console', (message) => logs.push(message.text()));
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Delete admin', exact: true }).click();
  await expect.poll(() => logs).toContain('Cannot delete admin. Good try.');
  await expect(page.getByText('Cannot delete admin. Good try.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test.describe('the user and role screens, at 1280 and 390 px', () => {
  test('every state passes axe and fits', async ({ page }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.goto('/users');
    const grid = page.getByRole('grid', { name: 'Users' });
    await expect(grid.getByRole('button', { name: 'Edit viewer', exact: true })).toBeVisible();
    await expectUsable(page, '/users');

    await grid.getByRole('button', { name: 'Edit viewer', exact: true }).click();
    await expect(grid.getByRole('textbox', { name: 'Username' })).toBeFocused();
    await expectUsable(page, 'a user row in edit mode');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('textbox')).toHaveCount(0);

    const setPassword = grid.getByRole('button', { name: 'Set password for viewer' });
    await setPassword.click();
    const dialog = page.getByRole('dialog', { name: 'Set password for viewer' });
    await expect(dialog.getByLabel('New password')).toBeFocused();
    await expectUsable(page, 'the set-password dialog');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(setPassword).toBeFocused();

    await grid.getByRole('button', { name: 'Delete viewer', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Delete user' })).toBeVisible();
    await expectUsable(page, 'the delete-user confirmation');
    await page.keyboard.press('Escape');

    await page.goto('/users/add');
    await page.getByRole('button', { name: 'Add User' }).click();
    await expect(page.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');
    await expectUsable(page, 'the add-user form with its errors');

    await page.goto('/roles');
    await expect(page.getByRole('list', { name: 'Roles' }).getByText('viewer')).toBeVisible();
    await expectUsable(page, '/roles');
    await page.getByRole('button', { name: 'Delete contributor' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete role' })).toBeVisible();
    await expectUsable(page, 'the delete-role confirmation');
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Edit viewer' }).click();
    await expect(page.getByRole('switch').first()).toBeVisible();
    await waitForNetworkQuiet(page);
    await expectUsable(page, "a role's users");

    await page.goto('/role');
    await page.getByRole('button', { name: 'Add Role' }).click();
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expectUsable(page, 'the add-role form with its errors');
  });

  test('by keyboard: the arrows reach Edit, which puts the keyboard in the username; Escape puts it back', async ({
    page,
  }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.goto('/users');
    const grid = page.getByRole('grid', { name: 'Users' });
    const edit = grid.getByRole('button', { name: 'Edit viewer', exact: true });
    await expect(edit).toBeVisible();
    await expectFocusShows(edit, () => arrowToUser(page, grid, 'viewer', 3));
    await page.keyboard.press('Enter');
    const username = grid.getByRole('textbox', { name: 'Username' });
    await expect(username).toBeFocused();
    await page.keyboard.type('-renamed');
    await expect(username).toHaveValue('viewer-renamed');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('textbox')).toHaveCount(0);
    await expect(userRow(grid, 'viewer')).toBeVisible();
    await expect(userRow(grid, 'viewer')).toHaveAccessibleDescription(
      'Enter on a cell edits its row, Enter again saves it, Escape cancels.',
    );
  });

  test('by keyboard: Enter on a cell edits its row and Enter again saves it', async ({ page }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    const name = `kb-${Date.now().toString(36)}`;
    const created = await page.request.post('/api/users', {
      headers: await authorization(page),
      data: {
        username: name,
        email: `${name}@example.com`,
        password: 'a-good-password',
        roles: [],
      },
    });
    expect(created.ok()).toBe(true);
    await page.goto('/users');
    const grid = page.getByRole('grid', { name: 'Users' });
    await expect(userRow(grid, name)).toBeVisible();

    await arrowToUser(page, grid, name, 1);
    await page.keyboard.press('Enter');
    const email = grid.getByRole('textbox', { name: 'Email' });
    await expect(email).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('org');
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('textbox')).toHaveCount(0);
    await expect(userRow(grid, name)).toContainText(`${name}@example.org`);
    await page.reload();
    await expect(userRow(grid, name)).toContainText(`${name}@example.org`);
  });

  test('by keyboard: the confirmations and the set-password dialog hold the focus and give it back', async ({
    page,
  }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.goto('/users');
    const grid = page.getByRole('grid', { name: 'Users' });
    const deleteViewer = grid.getByRole('button', { name: 'Delete viewer', exact: true });
    await expect(deleteViewer).toBeVisible();
    await arrowToUser(page, grid, 'viewer', 3);
    await expect(grid.getByRole('button', { name: 'Edit viewer', exact: true })).toBeFocused();
    // Past Set password and Reset second factors.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await expect(deleteViewer).toBeFocused();

    // Delete user: Cancel first; Tab goes round the dialog's two buttons; Escape gives back.
    await page.keyboard.press('Enter');
    const confirmUser = page.getByRole('dialog', { name: 'Delete user' });
    const cancel = confirmUser.getByRole('button', { name: 'Cancel' });
    await expect(cancel).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(confirmUser.getByRole('button', { name: 'Delete' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(cancel).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(confirmUser.getByRole('button', { name: 'Delete' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirmUser).toHaveCount(0);
    await expect(deleteViewer).toBeFocused();

    // Reset second factors: Cancel first; Escape gives back.
    const resetFactors = grid.getByRole('button', { name: 'Reset second factors of viewer' });
    await page.keyboard.press('ArrowLeft');
    await expect(resetFactors).toBeFocused();
    await page.keyboard.press('Enter');
    const confirmReset = page.getByRole('dialog', { name: 'Reset second factors' });
    await expect(confirmReset.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirmReset).toHaveCount(0);
    await expect(resetFactors).toBeFocused();

    // Set password: the new password first; Tab goes round; Cancel gives back.
    const setPassword = grid.getByRole('button', { name: 'Set password for viewer' });
    await page.keyboard.press('ArrowLeft');
    await expect(setPassword).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Set password for viewer' });
    const newPassword = dialog.getByLabel('New password');
    await expect(newPassword).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Set password' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(newPassword).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(setPassword).toBeFocused();

    // Delete role: the same, from the roles list, where every action is a Tab stop.
    await page.goto('/roles');
    const deleteRole = page.getByRole('button', { name: 'Delete contributor' });
    await tabTo(page, page.getByRole('link', { name: 'Edit contributor' }));
    // An admin's row also offers to see the screens as the role, between the two.
    await tabTo(page, page.getByRole('button', { name: 'See the screens as contributor' }), 1);
    await tabTo(page, deleteRole, 1);
    await page.keyboard.press('Enter');
    const confirmRole = page.getByRole('dialog', { name: 'Delete role' });
    await expect(confirmRole.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(confirmRole.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(confirmRole).toHaveCount(0);
    await expect(deleteRole).toBeFocused();
  });

  test("by keyboard: a role's users are switches reached by Tab, that Space turns on and off", async ({
    page,
  }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    const name = `kb-role-${Date.now().toString(36)}`;
    const created = await page.request.post('/api/roles', {
      headers: await authorization(page),
      data: { name },
    });
    const { _id } = (await created.json()) as { _id: string };
    await page.goto(`/role/${_id}/edit`);
    const toggle = page.getByRole('switch', { name: 'contributor has the role' });
    await expect(toggle).not.toBeChecked();
    await tabTo(page, toggle);
    await page.keyboard.press('Space');
    await expect(toggle).toBeChecked();
    await page.keyboard.press('Space');
    await expect(toggle).not.toBeChecked();
  });
});

test('by keyboard: after a confirmed delete the focus is on the next user, or the next role', async ({
  page,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const headers = await authorization(page);
  const prefix = `kb-del-${Date.now().toString(36)}`;
  for (const suffix of ['a', 'b']) {
    const user = await page.request.post('/api/users', {
      headers,
      data: { username: `${prefix}-${suffix}`, password: 'a-good-password', roles: [] },
    });
    expect(user.ok()).toBe(true);
    const role = await page.request.post('/api/roles', {
      headers,
      data: { name: `${prefix}-${suffix}` },
    });
    expect(role.ok()).toBe(true);
  }

  // Users, by name: -a, then -b.
  await page.goto('/users');
  const grid = page.getByRole('grid', { name: 'Users' });
  await expect(userRow(grid, `${prefix}-a`)).toBeVisible();
  await arrowToUser(page, grid, `${prefix}-a`, 3);
  await expect(grid.getByRole('button', { name: `Edit ${prefix}-a` })).toBeFocused();
  // Past Set password and Reset second factors.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(grid.getByRole('button', { name: `Delete ${prefix}-a` })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(userRow(grid, `${prefix}-a`)).toHaveCount(0);
  await expect(
    userRow(grid, `${prefix}-b`).locator('[role=gridcell][data-field=username]'),
  ).toBeFocused();

  // Roles, by name: -a, then -b.
  await page.goto('/roles');
  const roles = page.getByRole('list', { name: 'Roles' });
  const kept = roles.getByRole('listitem').filter({ hasText: `${prefix}-b` });
  await tabTo(page, roles.getByRole('button', { name: `Delete ${prefix}-a` }));
  await expectFocusShows(kept, async () => {
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('dialog', { name: 'Delete role' }).getByRole('button', { name: 'Cancel' }),
    ).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(roles.getByText(`${prefix}-a`)).toHaveCount(0);
  });
  await page.keyboard.press('Tab');
  await expect(roles.getByRole('link', { name: `Edit ${prefix}-b` })).toBeFocused();
});
