import { E2E_ADMIN_PASSWORD } from './accounts';
import { expect, expectUsable, signIn, test } from './fixtures';
import { expectFocusShows, tabTo } from './keyboard';

test('the job list: filter, page size, sort, and a job expanded to its results', async ({
  page,
}) => {
  await signIn(page, 'viewer', 'viewer123');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Experimental' })
    .click();
  await page
    .getByRole('navigation', { name: 'Experimental' })
    .getByRole('link', { name: 'Job' })
    .click();
  const grid = page.getByRole('grid', { name: 'Jobs' });
  const jobCells = grid.locator('[data-field="friendlyNumber"][role="gridcell"]');
  await expect(jobCells.first()).toHaveText('J-0000001');
  // The grid renders only the rows in view: the pagination tells the page's size.
  await expect(page.getByText(/^1–50 of /)).toBeVisible();

  // Page size 20.
  await page.getByRole('combobox', { name: /Rows per page/ }).click();
  await page.getByRole('option', { name: '20' }).click();
  await expect(page.getByText(/^1–20 of /)).toBeVisible();
  await expect(page).toHaveURL(/perPage=20/);

  // Sort by job number, descending (a second click on the same column).
  await grid.getByRole('columnheader', { name: 'Job' }).click();
  await expect(jobCells.first()).toHaveText('J-0010000');
  await expect(page).toHaveURL(/sortOrder=desc/);

  // Filter by a job number: exactly one.
  await page.getByLabel('Filter').fill('J-0000042');
  await expect(jobCells).toHaveCount(1);
  await expect(jobCells.first()).toHaveText('J-0000042');
  await expect(page.getByText('1–1 of 1')).toBeVisible();

  // Expand it: its samples, tasks and results.
  await grid.getByRole('button', { name: 'Expand J-0000042' }).click();
  const details = page.getByRole('region', { name: 'Details of J-0000042' });
  await expect(details).toContainText('Sample J-0000042-S1');
  await expect(details.getByRole('table').first().getByRole('row')).not.toHaveCount(0);

  // A reload shows the same view.
  await page.reload();
  await expect(jobCells).toHaveCount(1);
  await expect(page.getByLabel('Filter')).toHaveValue('J-0000042');
});

test('the job list pages on and keeps its page on a reload; Space opens a job; phones pick a page size', async ({
  page,
}) => {
  await signIn(page, 'viewer', 'viewer123');
  await page.goto('/lims/jobs');
  const grid = page.getByRole('grid', { name: 'Jobs' });
  const jobCells = grid.locator('[data-field="friendlyNumber"][role="gridcell"]');
  await expect(jobCells.first()).toHaveText('J-0000001');

  await page.getByRole('button', { name: 'Go to next page' }).click();
  await expect(page.getByText(/^51–100 of /)).toBeVisible();
  await expect(jobCells.first()).toHaveText('J-0000051');
  await page.reload();
  await expect(page.getByText(/^51–100 of /)).toBeVisible();
  await expect(jobCells.first()).toHaveText('J-0000051');
  await expect(page).toHaveURL(/[?&]page=2\b/);

  // An old link past the last page lands on the last page, and the address says so.
  await page.goto('/lims/jobs?page=100000');
  await expect(page.getByText(/^9,951–10,000 of /)).toBeVisible();
  await expect(jobCells.first()).toHaveText('J-0009951');
  await expect(page).toHaveURL(/[?&]page=200\b/);
  await page.goBack();
  await expect(jobCells.first()).toHaveText('J-0000051');

  // The keyboard: Space on the toggle opens the job and closes it again.
  await grid.getByRole('button', { name: 'Expand J-0000051' }).focus();
  await page.keyboard.press('Space');
  const details = page.getByRole('region', { name: 'Details of J-0000051' });
  await expect(details).toContainText('Sample J-0000051-S1');
  await expect(grid.getByRole('button', { name: 'Collapse J-0000051' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(details).toHaveCount(0);

  // The last page and the first are a click away.
  await page.getByRole('button', { name: 'Go to last page' }).click();
  await expect(page.getByText(/^9,951–10,000 of /)).toBeVisible();
  await expect(jobCells.first()).toHaveText('J-0009951');
  await page.getByRole('button', { name: 'Go to first page' }).click();
  await expect(jobCells.first()).toHaveText('J-0000001');

  // A phone's width: the page size can still be chosen, and the pager's four buttons are
  // in sight within the grid (the last two were past its edge, in a strip to scroll).
  await page.setViewportSize({ width: 390, height: 800 });
  const expectPagerInSight = async () => {
    const footer = (await page.locator('.MuiDataGrid-footerContainer').boundingBox())!;
    for (const name of ['first', 'previous', 'next', 'last']) {
      const box = (await page.getByRole('button', { name: `Go to ${name} page` }).boundingBox())!;
      expect(box.x + box.width, `Go to ${name} page`).toBeLessThanOrEqual(footer.x + footer.width);
    }
  };
  await expectPagerInSight();
  await page.getByRole('combobox', { name: /Rows per page/ }).click();
  await page.getByRole('option', { name: '20' }).click();
  await expect(page.getByText(/^1–20 of /)).toBeVisible();

  // A link past even the highest page the server takes (1,000,000,000) lands on the last.
  await page.goto('/lims/jobs?page=1000000001');
  await expect(page.getByText(/^9,951–10,000 of /)).toBeVisible();
  await expect(jobCells.first()).toHaveText('J-0009951');
  await expect(page).toHaveURL(/[?&]page=200\b/);
  await expectPagerInSight();
});

for (const [username, password] of [
  ['admin', E2E_ADMIN_PASSWORD],
  ['viewer', 'viewer123'],
] as const) {
  test(`the job list passes axe and fits at 1280 and 390 px for ${username}: a page, a job expanded, no match`, async ({
    page,
  }) => {
    await signIn(page, username, password);
    await page.goto('/lims/jobs');
    const grid = page.getByRole('grid', { name: 'Jobs' });
    await expect(grid.getByRole('button', { name: 'Expand J-0000001' })).toBeVisible();
    await expectUsable(page, '/lims/jobs');

    await grid.getByRole('button', { name: 'Expand J-0000001' }).click();
    await expect(grid.getByRole('region', { name: 'Details of J-0000001' })).toBeVisible();
    await expectUsable(page, 'a job expanded');

    await page.goto('/lims/jobs?filter=no-such-job-anywhere');
    await expect(page.getByText('No jobs match this filter')).toBeVisible();
    await expectUsable(page, 'a filter with no match');
  });
}

test("by keyboard: the grid is one Tab stop, the arrows reach a job's toggle, Enter opens and closes it", async ({
  page,
}) => {
  await signIn(page, 'viewer', 'viewer123');
  await page.goto('/lims/jobs');
  const grid = page.getByRole('grid', { name: 'Jobs' });
  const expand = grid.getByRole('button', { name: 'Expand J-0000001' });
  await expect(expand).toBeVisible();
  // The last stop before the grid: the saved views' Save view.
  await tabTo(page, page.getByRole('button', { name: 'Save view' }));

  // One Tab enters the grid, the next leaves it: no stop on each job's toggle.
  await page.keyboard.press('Tab');
  await expect(grid.getByRole('columnheader', { name: 'Details' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: /Rows per page/ })).toBeFocused();

  await page.keyboard.press('Shift+Tab');
  await expectFocusShows(expand, () => page.keyboard.press('ArrowDown'));
  await expect(expand).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
  const details = grid.getByRole('region', { name: 'Details of J-0000001' });
  await expect(details).toContainText('Sample J-0000001-S1');
  const collapse = grid.getByRole('button', { name: 'Collapse J-0000001' });
  await expect(collapse).toBeFocused();
  await expect(collapse).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Enter');
  await expect(details).toHaveCount(0);
  await expect(expand).toBeFocused();
});

test('typing a filter after moving in the grid by keyboard keeps the focus and every key in the filter', async ({
  page,
}) => {
  await signIn(page, 'viewer', 'viewer123');
  await page.goto('/lims/jobs');
  const grid = page.getByRole('grid', { name: 'Jobs' });
  await expect(grid.getByRole('button', { name: 'Expand J-0000001' })).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Save view' }));
  await page.keyboard.press('Tab');
  await expect(grid.getByRole('columnheader', { name: 'Details' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(grid.getByRole('button', { name: 'Expand J-0000001' })).toBeFocused();

  // Back to the filter by keyboard: the grid had a cell in focus, and the new rows put it
  // back in focus, so the rest of the typing went to the grid.
  const filter = page.getByLabel('Filter');
  // Save view, Export, Columns and Refresh come between them.
  for (let i = 0; i < 8; i++) {
    if (await filter.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('Shift+Tab');
  }
  await expect(filter).toBeFocused();
  await page.keyboard.type('completed pass');
  await expect(page).toHaveURL(/filter=completed\+pass/);
  // The filtered rows are in: fewer jobs than all of them.
  await expect(page.getByText(/^1–50 of (?!10,000$)[\d,]+$/)).toBeVisible();
  await page.keyboard.type(' water');
  await expect(filter).toBeFocused();
  await expect(filter).toHaveValue('completed pass water');
  await expect(page).toHaveURL(/filter=completed\+pass\+water/);
});

test('a filter typed at a slow typist’s pace keeps every key', async ({ page }) => {
  await signIn(page, 'viewer', 'viewer123');
  await page.goto('/lims/jobs');
  await expect(page.getByText(/^1–50 of 10,000$/)).toBeVisible();
  const filter = page.getByLabel('Filter');
  await filter.click();
  // About the grid's debounce between keys: each pause sends the filter so far, and the next
  // key lands while it goes into the URL (the page lost it: `water` became `wter`).
  await page.keyboard.type('in progress pass', { delay: 300 });
  await expect(page).toHaveURL(/filter=in\+progress\+pass/);
  await expect(filter).toHaveValue('in progress pass');
});
