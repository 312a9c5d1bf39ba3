import { readFileSync } from 'node:fs';
import { E2E_ADMIN_PASSWORD } from './accounts';
import { DESKTOP, expect, expectUsable, logOut, signIn, test } from './fixtures';

test('an admin filters the audit log by action and exports it as CSV', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'contributor', 'contributor123');
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const title = `Audited ${Date.now().toString(36)}`;
  const added = await page.request.post('/api/books/add', {
    headers: { authorization: `Bearer ${token}` },
    data: { title },
  });
  expect(added.ok()).toBe(true);
  // Not offered to a contributor: not in the navigation, and the page says why.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Routes' })).toBeVisible();
  await page.goto('/audit');
  await expect(page.getByText('Your role does not allow reading the audit log.')).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit' })).toHaveCount(0);
  await logOut(page);

  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  await nav.getByRole('link', { name: 'Audit' }).click();
  const grid = page.getByRole('grid', { name: 'Audit events' });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await expectUsable(page, 'the audit log');

  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'book.create' }).click();
  await page.getByLabel('Who (username)').fill('contributor');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  // The unfiltered log shows the new book too (it is among the latest events): the filter has
  // applied once no other action is left, the new book still there.
  const cellsOf = (field: string) => grid.locator(`[role="gridcell"][data-field="${field}"]`);
  await expect(cellsOf('action').filter({ hasNotText: /^book\.create$/ })).toHaveCount(0);
  await expect(cellsOf('actor').filter({ hasNotText: /^contributor$/ })).toHaveCount(0);
  await expect(grid.getByRole('gridcell', { name: `Added the book "${title}"` })).toBeVisible();

  await page.getByRole('button', { name: 'Export' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('audit.csv');
  const lines = readFileSync((await file.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  // The columns on screen, headed as the grid heads them.
  expect(lines[0]).toBe('\uFEFFWhen,Who,Action,What,Address');
  expect(lines.slice(1).every((line) => /^[^,]+,contributor,book\.create,/.test(line))).toBe(true);
  expect(lines.some((line) => line.includes(`,"Added the book ""${title}""",`))).toBe(true);
});
