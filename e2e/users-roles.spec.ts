import { E2E_ADMIN_PASSWORD } from './accounts';
import { expect, signIn, test } from './fixtures';

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
