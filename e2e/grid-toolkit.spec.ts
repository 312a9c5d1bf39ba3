import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './accounts';
import { DESKTOP, PHONE, expect, expectUsable, signIn, test } from './fixtures';
import { secondPerson } from './people';

/** Exports the list in `format` and answers the downloaded file's name and text. */
async function exportAs(page: Page, format: 'CSV' | 'JSON') {
  await page.getByRole('button', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: format }).click();
  const download = await downloading;
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

test('the job list exports its filter and sort, all pages, to a file', async ({ page }) => {
  await signIn(page, 'viewer', 'viewer123');
  await page.goto('/lims/jobs?filter=J-00001&sortOrder=desc');
  const grid = page.getByRole('grid', { name: 'Jobs' });
  const jobCells = grid.locator('[data-field="friendlyNumber"][role="gridcell"]');
  await expect(jobCells.first()).toHaveText('J-0000199');
  // J-0000100 to J-0000199 (the seed has 10,000 jobs), over two pages.
  await expect(page.getByText(/of 100$/)).toBeVisible();

  const csv = await exportAs(page, 'CSV');
  expect(csv.name).toBe('jobs.csv');
  const lines = csv.text.trimEnd().split('\r\n');
  // A byte-order mark for Excel, then the grid's headings for the columns on screen.
  expect(lines[0]).toBe('\uFEFFJob,Status,Conclusion,Description');
  expect(lines).toHaveLength(101);
  expect(lines[1]).toMatch(/^J-0000199,/);
  expect(lines.at(-1)).toMatch(/^J-0000100,/);

  const json = await exportAs(page, 'JSON');
  expect(json.name).toBe('jobs.json');
  const jobs = JSON.parse(json.text) as { friendlyNumber: string }[];
  expect(jobs.map((job) => job.friendlyNumber)).toEqual(
    lines.slice(1).map((line) => line.split(',')[0]),
  );
  await expectUsable(page, 'jobs with the export menu');
});

test('the users are searched as one types, the search kept in the URL', async ({ page }) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  await page.goto('/users');
  const usernames = page
    .getByRole('grid', { name: 'Users' })
    .locator('[data-field="username"][role="gridcell"]');
  await expect(usernames.filter({ hasText: /^viewer$/ })).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search' }).fill('CONTRIB');
  await expect(page).toHaveURL(/[?&]q=CONTRIB/);
  await expect(usernames).toHaveText(['contributor']);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('CONTRIB');
  await expect(usernames).toHaveText(['contributor']);

  const csv = await exportAs(page, 'CSV');
  const lines = csv.text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('\uFEFFUsername,Email,Roles');
  expect(lines.slice(1)).toEqual([expect.stringMatching(/^contributor,/)]);
  await expectUsable(page, 'users searched');
});

test('records: select all matching, set a field on them, delete them and Undo', async ({
  page,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const headers = { authorization: `Bearer ${token}` };
  const name = `Vial_${Date.now().toString(36)}`;
  const defined = await page.request.post('/api/entities', {
    headers,
    data: { name, fields: [{ name: 'code' }, { name: 'shelf' }] },
  });
  expect(defined.ok()).toBe(true);
  // 60 vials (more than a page of 50), 40 of them in batch B.
  for (let i = 1; i <= 60; i++) {
    const code = `${i <= 40 ? 'B' : 'A'}-${String(i).padStart(2, '0')}`;
    const added = await page.request.post(`/api/entity-records/${name}`, {
      headers,
      data: { fields: { code, shelf: 'top' } },
    });
    expect(added.ok()).toBe(true);
  }
  await page.goto(`/entities/${name}?perPage=25`);
  const grid = page.getByRole('grid', { name: `${name} records` });
  await page.getByRole('searchbox', { name: 'Search' }).fill('b-');
  await expect(page.getByText(/of 40$/)).toBeVisible();

  await grid.getByRole('checkbox', { name: 'Select all rows' }).check();
  const bar = page.getByRole('region', { name: 'Selected records' });
  await expect(bar).toContainText('25 selected');
  await bar.getByRole('button', { name: 'Select all 40 matching' }).click();
  await expect(bar).toContainText('All 40 records matching are selected');
  await expectUsable(page, 'records, all matching selected');

  await bar.getByRole('button', { name: 'Set a field' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set a field' });
  await dialog.getByRole('combobox', { name: 'Field' }).click();
  await page.getByRole('option', { name: 'shelf' }).click();
  await dialog.getByLabel('Value').fill('bottom');
  await dialog.getByRole('button', { name: 'Set on 40' }).click();
  const shelves = grid.locator('[data-field="value:shelf"][role="gridcell"]');
  // The rows in view (the grid renders those only) all say so.
  await expect(shelves.first()).toHaveText('bottom');
  await expect(shelves.filter({ hasText: 'top' })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(page.getByText(/of 60$/)).toBeVisible();
  const everyShelf = await page.request.get(`/api/entity-records/${name}`, { headers });
  const records = (await everyShelf.json()) as { fields: { code: string; shelf: string } }[];
  expect(records.filter((r) => r.fields.shelf === 'bottom').map((r) => r.fields.code[0])).toEqual(
    Array(40).fill('B'),
  );

  // Delete two by hand; the toast offers Undo, which brings them back where they were.
  const codes = grid.locator('[data-field="value:code"][role="gridcell"]');
  await expect(codes.first()).toHaveText('B-01');
  for (const code of ['B-01', 'B-02']) {
    await grid
      .getByRole('row', { name: new RegExp(code) })
      .getByRole('checkbox')
      .check();
  }
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete records' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(codes.first()).toHaveText('B-03');
  await expect(page.getByText(/of 58$/)).toBeVisible();
  // The bar is gone with the selection: the keyboard is on the grid's headings, not lost.
  await expect
    .poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="columnheader"]')))
    .toBe(true);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(codes.first()).toHaveText('B-01');
  await expect(page.getByText(/of 60$/)).toBeVisible();
});

test('a user, a role and an entity with its records, each deleted, come back with Undo', async ({
  page,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const headers = { authorization: `Bearer ${token}` };
  const suffix = Date.now().toString(36);
  const roleName = `undo-role-${suffix}`;
  const role = await (
    await page.request.post('/api/roles', { headers, data: { name: roleName } })
  ).json();
  const username = `undo-${suffix}`;
  const made = await page.request.post('/api/users', {
    headers,
    data: { username, password: 'undo-password', roles: [role._id] },
  });
  expect(made.ok()).toBe(true);
  const entityName = `Undo_${suffix}`;
  await page.request.post('/api/entities', {
    headers,
    data: { name: entityName, fields: [{ name: 'code' }] },
  });
  for (const code of ['U-1', 'U-2'])
    await page.request.post(`/api/entity-records/${entityName}`, {
      headers,
      data: { fields: { code } },
    });

  // The user: deleted from the grid, back with its role, and able to sign in.
  await page.goto(`/users?q=${username}`);
  const grid = page.getByRole('grid', { name: 'Users' });
  await grid.getByRole('button', { name: `Delete ${username}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete user' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(grid.getByText(username)).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  const row = grid.getByRole('row', { name: new RegExp(username) });
  await expect(row).toContainText(roleName);
  const signIn2 = await page.request.post('/api/auth/login', {
    data: { username, password: 'undo-password' },
  });
  expect(signIn2.ok()).toBe(true);

  // The role: deleted from its list, back for its user.
  await page.goto('/roles');
  await page.getByRole('button', { name: `Delete ${roleName}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete role' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const roles = page.getByRole('list', { name: 'Roles' });
  await expect(roles.getByText(roleName, { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(roles.getByText(roleName, { exact: true })).toHaveCount(1);
  const users = await (await page.request.get('/api/users', { headers })).json();
  expect(
    users
      .find((user: { username: string }) => user.username === username)
      .roles.map((r: { name: string }) => r.name),
  ).toEqual([roleName]);

  // The entity: deleted with its records, back with them.
  await page.goto('/entities');
  const card = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: entityName }) });
  await card.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete entity' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByRole('heading', { name: entityName })).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('heading', { name: entityName })).toHaveCount(1);
  await page.goto(`/entities/${entityName}`);
  await expect(
    page
      .getByRole('grid', { name: `${entityName} records` })
      .locator('[data-field="value:code"][role="gridcell"]'),
  ).toHaveText(['U-1', 'U-2']);
});

test('a saved view keeps the columns and follows the user to another browser', async ({
  page,
  browser,
}) => {
  await signIn(page, 'viewer', 'viewer123');
  await page.goto('/lims/jobs?filter=J-00002');
  const grid = page.getByRole('grid', { name: 'Jobs' });
  const headers = grid.getByRole('columnheader');
  await expect(headers.filter({ hasText: 'Conclusion' })).toHaveCount(1);

  await page.getByRole('button', { name: 'Columns' }).click();
  const chooser = page.getByRole('dialog', { name: 'Columns' });
  // The box is the URL's: it changes once the URL has (not at once, as `uncheck` expects).
  await chooser.getByRole('checkbox', { name: 'Conclusion' }).click();
  await expect(chooser.getByRole('checkbox', { name: 'Conclusion' })).not.toBeChecked();
  await chooser.getByRole('button', { name: 'Move Description left' }).click();
  await expectUsable(page, 'jobs with the column chooser open');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/columns=friendlyNumber%2Cdescription%2Cstatus/);
  await expect(headers.filter({ hasText: 'Conclusion' })).toHaveCount(0);
  // What an export writes is what the grid shows, in its order.
  expect((await exportAs(page, 'CSV')).text.split('\r\n')[0]).toBe('\uFEFFJob,Description,Status');

  await page.getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Hundreds, no conclusion');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const chip = page
    .getByRole('navigation', { name: 'Saved views' })
    .getByRole('button', { name: 'Hundreds, no conclusion' });
  await expect(chip).toHaveAttribute('aria-current', 'true');

  // Coming back from elsewhere, the list is as it was left.
  await page.goto('/');
  await page.goto('/lims/jobs');
  await expect(page).toHaveURL(/filter=J-00002.*columns=/);
  await expect(headers.filter({ hasText: 'Conclusion' })).toHaveCount(0);

  // Another browser: signed in there, the saved view is offered, and shows the same list.
  const other = await secondPerson(browser, 'viewer');
  await other.goto('/lims/jobs');
  const otherGrid = other.getByRole('grid', { name: 'Jobs' });
  await expect(otherGrid.getByRole('columnheader').filter({ hasText: 'Conclusion' })).toHaveCount(
    1,
  );
  await other
    .getByRole('navigation', { name: 'Saved views' })
    .getByRole('button', { name: 'Hundreds, no conclusion' })
    .click();
  await expect(otherGrid.getByRole('columnheader').filter({ hasText: 'Conclusion' })).toHaveCount(
    0,
  );
  await expect(
    otherGrid.locator('[data-field="friendlyNumber"][role="gridcell"]').first(),
  ).toHaveText('J-0000200');
  await other.context().close();
});

test('records: import a CSV file with two bad rows, see why, then import the valid rows', async ({
  page,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const headers = { authorization: `Bearer ${token}` };
  const name = `Flask_${Date.now().toString(36)}`;
  const defined = await page.request.post('/api/entities', {
    headers,
    data: {
      name,
      fields: [
        { name: 'code', label: 'Code', required: true },
        { name: 'volume', label: 'Volume', type: 'number' },
      ],
    },
  });
  expect(defined.ok()).toBe(true);
  await signIn(page, 'contributor', 'contributor123');
  await page.goto(`/entities/${name}`);
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: `Import ${name} records` });
  const csv = 'Code,Volume,Note\nF-1,1.5,first\n,2,no code\nF-3,lots,not a number\nF-4,4,\n';
  // The page's own file button, in the page's language (the browser's says "Choose File").
  await expect(dialog.getByText('No file chosen')).toBeVisible();
  await dialog
    .getByLabel('CSV file')
    .setInputFiles({ name: 'flasks.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(dialog.getByText('flasks.csv')).toBeVisible();
  // Matched by label; the column no field has is skipped.
  await expect(dialog.getByRole('combobox', { name: 'Field for the column Code' })).toHaveText(
    'Code',
  );
  await expect(dialog.getByRole('combobox', { name: 'Field for the column Note' })).toHaveText(
    'Skip this column',
  );
  // On a phone the choices stay within the dialog, not behind its edge.
  await page.setViewportSize(PHONE);
  const dialogRight = await dialog.evaluate((box) => box.getBoundingClientRect().right);
  for (const choice of await dialog.getByRole('combobox').all())
    expect(await choice.evaluate((box) => box.getBoundingClientRect().right)).toBeLessThanOrEqual(
      dialogRight,
    );
  await page.setViewportSize(DESKTOP);
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Checked 4 rows: 2 would be added, 0 changed, 2 refused.',
  );
  const refused = dialog.getByRole('table', { name: 'Refused rows' });
  await expect(refused.getByRole('row')).toHaveCount(3);
  await expect(refused.getByRole('row').nth(1)).toContainText('3Code');
  await expect(refused.getByRole('row').nth(2)).toContainText('4Volume');
  await expectUsable(page, 'the import dialog with its report');
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download the report' }).click();
  const report = await readFile(await (await downloading).path(), 'utf8');
  expect(report.split('\r\n')[0]).toBe('line,field,message');
  expect(report.split('\r\n')).toHaveLength(4);

  await dialog.getByRole('radio', { name: 'Import the valid rows' }).check();
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Imported 2 of 4 rows: 2 added, 0 changed, 2 refused.',
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  const codes = page
    .getByRole('grid', { name: `${name} records` })
    .locator('[data-field="value:code"][role="gridcell"]');
  await expect(codes).toHaveText(['F-1', 'F-4']);
});
