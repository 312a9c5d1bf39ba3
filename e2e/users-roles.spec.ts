import { E2E_ADMIN_PASSWORD } from './accounts';
import { expect, expectUsable, signIn, test } from './fixtures';

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
  await page.waitForLoadState('networkidle');
  expect(usersAsked).toEqual([]);
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
    await page.waitForLoadState('networkidle');
    await expectUsable(page, "a role's users");

    await page.goto('/role');
    await page.getByRole('button', { name: 'Add Role' }).click();
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expectUsable(page, 'the add-role form with its errors');
  });

  test('by keyboard: Edit types into the username, Escape puts it back', async ({ page }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.goto('/users');
    const grid = page.getByRole('grid', { name: 'Users' });
    await grid.getByRole('button', { name: 'Edit viewer', exact: true }).focus();
    await page.keyboard.press('Enter');
    const username = grid.getByRole('textbox', { name: 'Username' });
    await expect(username).toBeFocused();
    await page.keyboard.type('-renamed');
    await expect(username).toHaveValue('viewer-renamed');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('textbox')).toHaveCount(0);
    await expect(
      grid.locator('[role=gridcell][data-field=username]', { hasText: /^viewer$/ }),
    ).toBeVisible();
    await expect(
      grid.getByRole('row').filter({ hasText: 'viewer' }).first(),
    ).toHaveAccessibleDescription(
      'Enter on a cell edits its row, Enter again saves it, Escape cancels.',
    );
  });
});
