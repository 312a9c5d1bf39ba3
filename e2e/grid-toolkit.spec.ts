import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './accounts';
import { expect, expectUsable, signIn, test } from './fixtures';

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
