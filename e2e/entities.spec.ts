import type { Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './accounts';
import {
  expect,
  expectNoAxeViolations,
  expectUsable,
  logOut,
  registerWithoutRole,
  signIn,
  test,
  waitForNetworkQuiet,
} from './fixtures';

/** Creates an entity through the API as the signed-in user; its name and _id. */
async function createEntity(page: Page, fields: { name: string; label: string; type?: string }[]) {
  const name = `Sample_${Date.now().toString(36)}`;
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const created = await page.request.post('/api/entities', {
    headers: { authorization: `Bearer ${token}` },
    data: { name, category: 'Lab', fields },
  });
  expect(created.ok()).toBe(true);
  return { name, id: ((await created.json()) as { _id: string })._id };
}

const SAMPLE_FIELDS = [
  { name: 'sampleid', label: 'Sample id' },
  { name: 'weightkg', label: 'Weight (kg)' },
];

test('an admin defines an entity, adds and edits records, sees versions, and deletes it', async ({
  page,
}) => {
  const suffix = Date.now().toString(36);
  const name = `Plant_${suffix}`;
  const category = `Garden ${suffix}`;
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Main' });

  // Define it in a new category: the name loses what is not a letter, digit or _.
  await nav.getByRole('button', { name: 'Entities' }).click();
  await page
    .getByRole('navigation', { name: 'Entities' })
    .getByRole('link', { name: 'Manage...' })
    .click();
  await page.getByRole('link', { name: 'Add Entity' }).click();
  await page.getByLabel(/^Name/).fill(`Plant ${suffix}!`.replace(' ', '_'));
  await expect(page.getByLabel(/^Name/)).toHaveValue(name);
  await page.getByLabel('Category').fill(category);
  const first = page.getByRole('group', { name: 'Field 1' });
  await first.getByLabel('Field name').fill('species');
  await first.getByLabel('Label').fill('Species');
  await page.getByRole('button', { name: 'Add field' }).click();
  const second = page.getByRole('group', { name: 'Field 2' });
  await second.getByLabel('Field name').fill('height');
  await second.getByLabel('Label').fill('Height (cm)');
  await page.getByRole('button', { name: 'Add Entity' }).click();
  await expect(page.getByText('Entity added successfully!')).toBeVisible();

  // It appears in the dropdown under its category.
  await nav.getByRole('button', { name: 'Entities' }).click();
  const menu = page.getByRole('navigation', { name: 'Entities' });
  await expect(menu.getByRole('list', { name: category })).toBeVisible();
  await menu.getByRole('link', { name }).click();
  const grid = page.getByRole('grid', { name: `${name} records` });
  await expect(grid.getByRole('columnheader', { name: 'Height (cm)' })).toBeVisible();

  // Two records, added inline.
  await page.getByRole('button', { name: 'Add record' }).click();
  await grid.getByRole('textbox').first().fill('Fern');
  await grid.getByRole('button', { name: 'Save record 1' }).click();
  await expect(grid.getByRole('button', { name: 'Edit record 1' })).toBeVisible();
  await page.getByRole('button', { name: 'Add record' }).click();
  await grid.getByRole('textbox').first().fill('Oak');
  await grid.getByRole('button', { name: 'Save record 2' }).click();
  await expect(grid.getByRole('button', { name: 'Edit record 2' })).toBeVisible();

  // Edit one.
  await grid.getByRole('button', { name: 'Edit record 1' }).click();
  await grid.getByRole('textbox').first().fill('Royal fern');
  await grid.getByRole('button', { name: 'Save record 1' }).click();
  await expect(grid.getByText('Royal fern')).toBeVisible();

  // Its versions: added, then edited.
  await grid.getByRole('button', { name: 'Versions of record 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record versions' });
  const versions = dialog.getByRole('list', { name: 'Versions' }).locator(':scope > li');
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toContainText('Royal fern');
  await expect(versions.last()).toContainText('Fern');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A reload shows what was saved.
  await page.reload();
  await expect(grid.getByText('Oak')).toBeVisible();
  await expect(grid.getByText('Royal fern')).toBeVisible();

  // Delete the entity.
  await nav.getByRole('button', { name: 'Entities' }).click();
  await page
    .getByRole('navigation', { name: 'Entities' })
    .getByRole('link', { name: 'Manage...' })
    .click();
  const card = page
    .getByRole('list', { name: 'Entities' })
    .getByRole('listitem')
    .filter({ hasText: name });
  await card.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete entity' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(card).toHaveCount(0);
  await nav.getByRole('button', { name: 'Entities' }).click();
  const menuAfter = page.getByRole('navigation', { name: 'Entities' });
  await expect(menuAfter.getByRole('link', { name: 'Manage...' })).toBeVisible();
  await expect(menuAfter.getByText(category)).toHaveCount(0);
});

test('typed fields: defined on the form, a number sorted as a number, a date range filtered, a relation picked, a required value asked for, a type change that some record cannot follow refused with its report', async ({
  page,
}) => {
  const suffix = Date.now().toString(36);
  const name = `Stock_${suffix}`;
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  // The entity a relation points at, with a record to pick.
  const shelf = await createEntity(page, [{ name: 'shelf', label: 'Shelf' }]);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  for (const label of ['Top shelf', 'Bottom shelf']) {
    const created = await page.request.post(`/api/entity-records/${shelf.name}`, {
      headers: { authorization: `Bearer ${token}` },
      data: { fields: { shelf: label } },
    });
    expect(created.ok()).toBe(true);
  }

  await page.goto('/entities/add');
  await page.getByLabel(/^Name/).fill(name);
  const typed = async (index: number, field: string, type: string) => {
    if (index > 1) await page.getByRole('button', { name: 'Add field' }).click();
    const group = page.getByRole('group', { name: `Field ${index}` });
    await group.getByLabel('Field name').fill(field);
    if (type !== 'Text') {
      await group.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: type, exact: true }).click();
    }
    return group;
  };
  const item = await typed(1, 'item', 'Text');
  await item.getByRole('checkbox', { name: 'Required' }).check();
  await typed(2, 'count', 'Whole number');
  const grade = await typed(3, 'grade', 'Choice');
  await grade.getByLabel('Options').fill('good, poor');
  await typed(4, 'note', 'Text');
  await typed(5, 'received', 'Date');
  const place = await typed(6, 'place', 'Record of an entity');
  await place.getByRole('combobox', { name: 'Points at' }).click();
  await page.getByRole('option', { name: shelf.name }).click();
  await page.getByRole('button', { name: 'Add Entity' }).click();
  await expect(page.getByText('Entity added successfully!')).toBeVisible();

  // Records by keyboard: the number in its own input, the date in the grid's date input.
  await page.goto(`/entities/${name}`);
  const grid = page.getByRole('grid', { name: `${name} records` });
  for (const [text, count, note, day] of [
    ['ten', '10', 'x', '2026-03-10'],
    ['nine', '9', 'seven', '2026-04-20'],
    ['eleven', '11', '', '2026-05-02'],
  ] as const) {
    await page.getByRole('button', { name: 'Add record' }).click();
    await expect(grid.getByRole('textbox', { name: 'item' })).toBeFocused();
    await page.keyboard.type(text);
    await page.keyboard.press('Tab');
    await page.keyboard.type(count);
    // The choice: the arrows choose, Tab moves on (Enter would save the row).
    await page.keyboard.press('Tab');
    await expect(grid.getByRole('combobox', { name: 'grade' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await expect(grid.getByRole('textbox', { name: 'note' })).toBeFocused();
    await page.keyboard.type(note);
    await grid.locator('input[type="date"]').fill(day);
    await page.keyboard.press('Enter');
    await expect(grid.getByText(text, { exact: true })).toBeVisible();
  }
  await expect(grid.getByRole('gridcell', { name: 'good' })).toHaveCount(3);
  // Sorted by the server, as numbers: 9 before 10.
  await grid.getByRole('columnheader', { name: 'count' }).click();
  await expect(page).toHaveURL(/sort=count%3Aasc/);
  await expect(grid.getByRole('row').nth(1)).toContainText('nine');
  await expect(grid.getByRole('row').nth(2)).toContainText('ten');
  await expect(grid.getByRole('row').nth(3)).toContainText('eleven');

  // A date range, from the column's filter: March and April only.
  await grid.getByRole('columnheader', { name: 'received' }).hover();
  await grid.getByRole('button', { name: 'received column menu' }).click();
  await page.getByRole('menuitem', { name: 'Filter' }).click();
  await page.getByRole('combobox', { name: 'Operator', exact: true }).click();
  await page.getByRole('option', { name: 'between' }).click();
  await page.getByRole('textbox', { name: 'From', exact: true }).fill('2026-03-01');
  await page.getByRole('textbox', { name: 'To', exact: true }).fill('2026-04-30');
  await expect(page).toHaveURL(/filter%5Breceived%5D%5Blte%5D=2026-04-30/);
  await expect(grid.getByText('eleven', { exact: true })).toBeHidden();
  await expect(grid.getByRole('row')).toHaveCount(3);
  await page.keyboard.press('Escape');

  // A required value left empty: its message under the cell, and nothing saved.
  await page.getByRole('button', { name: 'Add record' }).click();
  const itemCell = grid.getByRole('textbox', { name: 'item' });
  await expect(itemCell).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(itemCell).toHaveAccessibleDescription('is required');
  await expect(page.getByText('is required', { exact: true })).toBeVisible();
  // Then filled in, with a shelf picked by searching for it.
  await itemCell.fill('twelve');
  await expect(itemCell).not.toHaveAttribute('aria-invalid');
  const picker = grid.getByRole('combobox', { name: 'place' });
  await picker.fill('bottom');
  await page.getByRole('option', { name: 'Bottom shelf' }).click();
  await grid.locator('input[type="date"]').fill('2026-04-01');
  await page.keyboard.press('Enter');
  // Saved, and within the filter: it shows, its shelf by name.
  await expect(grid.getByRole('gridcell', { name: 'Bottom shelf' })).toBeVisible();

  // `note` as a whole number: `x` and `seven` cannot follow; the form lists them.
  await page.goto('/entities');
  const card = page.getByRole('listitem').filter({ hasText: name });
  await card.getByRole('link', { name: 'Edit' }).click();
  const note = page.getByRole('group', { name: 'Field 4' });
  await note.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Whole number' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText('2 values cannot follow this change');
  await expect(page.getByRole('alert')).toContainText('note «seven» must be a whole number');
  await page.goto(`/entities/${name}`);
  await expect(grid.getByText('seven')).toBeVisible();
});

test.describe('the entity and record screens, at 1280 and 390 px', () => {
  test('every state of the records grid passes axe and fits', async ({ page }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    const { name } = await createEntity(page, SAMPLE_FIELDS);
    await page.goto(`/entities/${name}`);
    const grid = page.getByRole('grid', { name: `${name} records` });
    await expect(page.getByText('No records yet')).toBeVisible();
    await expectUsable(page, 'the records grid, empty');

    await page.getByRole('button', { name: 'Add record' }).click();
    await expect(grid.getByRole('textbox', { name: 'Sample id' })).toBeFocused();
    await expectUsable(page, 'a new record in edit mode');
    await page.keyboard.type('S-001');
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('button', { name: 'Edit record 1' })).toBeVisible();
    await expectUsable(page, 'the records grid with a record');

    await grid.getByRole('button', { name: 'Edit record 1' }).click();
    await expect(grid.getByRole('textbox', { name: 'Sample id' })).toBeFocused();
    await expectUsable(page, 'a saved record in edit mode');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('button', { name: 'Edit record 1' })).toBeVisible();

    await grid.getByRole('button', { name: 'Versions of record 1' }).click();
    const versions = page.getByRole('dialog', { name: 'Record versions' });
    await expect(
      versions.getByRole('list', { name: 'Versions' }).locator(':scope > li'),
    ).toHaveCount(1);
    await expectUsable(page, 'the record versions dialog');
    await versions.getByRole('button', { name: 'Close' }).click();

    await grid.getByRole('button', { name: 'Delete record 1' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete record' })).toBeVisible();
    await expectUsable(page, 'the delete confirmation');
  });

  test('by keyboard: Add record and Edit type into the first cell, Escape cancels', async ({
    page,
  }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    const { name } = await createEntity(page, SAMPLE_FIELDS);
    await page.goto(`/entities/${name}`);
    const grid = page.getByRole('grid', { name: `${name} records` });
    await expect(page.getByText('No records yet')).toBeVisible();

    // Add record: typing goes into the first cell, Tab to the next, Enter saves.
    await page.getByRole('button', { name: 'Add record' }).focus();
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('textbox', { name: 'Sample id' })).toBeFocused();
    await page.keyboard.type('S-001');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1.5');
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('gridcell', { name: 'S-001' })).toBeVisible();
    await expect(grid.getByRole('gridcell', { name: '1.5' })).toBeVisible();

    // Edit: typing goes into the first cell; Escape puts the saved value back.
    await grid.getByRole('button', { name: 'Edit record 1' }).focus();
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('textbox', { name: 'Sample id' })).toBeFocused();
    await page.keyboard.type('-changed');
    await expect(grid.getByRole('textbox', { name: 'Sample id' })).toHaveValue('S-001-changed');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('gridcell', { name: 'S-001' })).toBeVisible();
    await expect(grid.getByRole('textbox')).toHaveCount(0);

    // Escape on a record never saved takes the row away.
    await page.getByRole('button', { name: 'Add record' }).click();
    await expect(grid.getByRole('textbox', { name: 'Sample id' })).toBeFocused();
    await page.keyboard.type('draft');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('textbox')).toHaveCount(0);
    await expect(grid.getByRole('row')).toHaveCount(2);

    // A row tells a screen reader what Enter does.
    await expect(grid.getByRole('row').nth(1)).toHaveAccessibleDescription(
      'Enter on a cell edits its row, Enter again saves it, Escape cancels.',
    );
  });

  test('Enter on a long text opens its editor with the text as it was, not a new line more', async ({
    page,
  }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    const { name } = await createEntity(page, [{ name: 'note', label: 'Note', type: 'longText' }]);
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    const added = await page.request.post(`/api/entity-records/${name}`, {
      headers: { authorization: `Bearer ${token}` },
      data: { fields: { note: 'Two' } },
    });
    expect(added.ok()).toBe(true);
    await page.goto(`/entities/${name}`);
    const grid = page.getByRole('grid', { name: `${name} records` });
    await grid.getByRole('gridcell', { name: 'Two' }).click();
    await page.keyboard.press('Enter');
    const editor = grid.getByRole('textbox');
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue('Two');
    await page.keyboard.press('Escape');
    await expect(grid.getByRole('textbox')).toHaveCount(0);
  });

  test('the entity list and forms pass axe and fit', async ({ page }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    const { name, id } = await createEntity(page, SAMPLE_FIELDS);
    await page.goto('/entities');
    await expect(page.getByRole('list', { name: 'Entities' }).getByText(name)).toBeVisible();
    await expectUsable(page, '/entities');

    await page.goto('/entities/add');
    await page.getByRole('button', { name: 'Add Entity' }).click();
    await expect(page.getByText(/required|must/i).first()).toBeVisible();
    await expectUsable(page, 'the add-entity form with its errors');

    await page.goto(`/entities/edit/${id}`);
    await expect(page.getByRole('group', { name: 'Field 2' })).toBeVisible();
    await expectUsable(page, 'the edit-entity form');
  });

  test('a viewer reads records, and a user with no role is told why not', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    const { name } = await createEntity(page, SAMPLE_FIELDS);

    const viewerContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
    const viewer = await viewerContext.newPage();
    await signIn(viewer, 'viewer', 'viewer123');
    await viewer.goto(`/entities/${name}`);
    await expect(viewer.getByText('No records yet')).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'Add record' })).toHaveCount(0);
    await expectUsable(viewer, 'the records grid for a viewer');
    await viewerContext.close();

    await logOut(page);
    await registerWithoutRole(page);
    await page.goto('/entities');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await waitForNetworkQuiet(page);
    await expectUsable(page, '/entities for a user with no role');
  });
});

test('a record edited twice: its history shows each change as old → new and restores the first', async ({
  page,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const { name } = await createEntity(page, SAMPLE_FIELDS);
  await page.goto(`/entities/${name}`);
  const grid = page.getByRole('grid', { name: `${name} records` });
  await page.getByRole('button', { name: 'Add record' }).click();
  await expect(grid.getByRole('textbox', { name: 'Sample id' })).toBeFocused();
  await page.keyboard.type('S-001');
  await page.keyboard.press('Enter');
  for (const value of ['S-002', 'S-003']) {
    await grid.getByRole('button', { name: 'Edit record 1' }).click();
    await grid.getByRole('textbox', { name: 'Sample id' }).fill(value);
    await grid.getByRole('button', { name: 'Save record 1' }).click();
    await expect(grid.getByRole('gridcell', { name: value })).toBeVisible();
  }

  await grid.getByRole('button', { name: 'Versions of record 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record versions' });
  const versions = dialog.getByRole('list', { name: 'Versions' }).locator(':scope > li');
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0).getByRole('list', { name: 'Changes' })).toHaveText(
    'Sample id: S-002 → S-003',
  );
  await expect(versions.nth(2).getByRole('list', { name: 'Changes' })).toHaveText(
    'Sample id: added S-001',
  );
  // Against the current version instead.
  await dialog.getByRole('switch', { name: 'Compare with the current version' }).check();
  await expect(
    versions.nth(2).getByRole('list', { name: 'Differences from the current version' }),
  ).toHaveText('Sample id: S-001 → S-003');
  await expectNoAxeViolations(page, 'a record history compared with the current version');

  await versions
    .nth(2)
    .getByRole('button', { name: /^Restore the version of/ })
    .click();
  await expect(versions).toHaveCount(4);
  await expect(versions.nth(0)).toContainText('restore');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(grid.getByRole('gridcell', { name: 'S-001' })).toBeVisible();
});

test('a deleted entity comes back from "Recently deleted" with the records deleted with it', async ({
  page,
}) => {
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  const { name } = await createEntity(page, SAMPLE_FIELDS);
  await page.goto(`/entities/${name}`);
  const grid = page.getByRole('grid', { name: `${name} records` });
  for (const code of ['S-776', 'S-777']) {
    await page.getByRole('button', { name: 'Add record' }).click();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(grid.getByRole('gridcell', { name: code })).toBeVisible();
  }
  // One deleted before the entity stays in its own "Recently deleted".
  await grid
    .getByRole('row', { name: /S-776/ })
    .getByRole('button', { name: /^Delete/ })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(grid.getByRole('gridcell', { name: 'S-776' })).toHaveCount(0);

  await page.goto('/entities');
  const card = page
    .getByRole('list', { name: 'Entities' })
    .getByRole('listitem')
    .filter({ hasText: name });
  await card.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete entity' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(card).toHaveCount(0);
  await page.getByRole('button', { name: 'Recently deleted' }).click();
  const entities = page.getByRole('dialog', { name: 'Recently deleted entities' });
  await expectUsable(page, 'the recently deleted entities');
  await entities.getByRole('button', { name: `Restore ${name}` }).click();
  await expect(entities.getByRole('status')).toHaveText(`Restored ${name}.`);
  await page.keyboard.press('Escape');
  await expect(card).toBeVisible();

  // The definition came back with the record deleted with it; the one deleted before is
  // still in its own "Recently deleted".
  await page.goto(`/entities/${name}`);
  await expect(grid.getByRole('gridcell', { name: 'S-777' })).toBeVisible();
  await expect(grid.getByRole('gridcell', { name: 'S-776' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Recently deleted' }).click();
  const records = page.getByRole('dialog', { name: `Recently deleted ${name} records` });
  await records.getByRole('button', { name: 'Restore S-776' }).click();
  await expect(records.getByRole('status')).toHaveText('Restored S-776.');
  await page.keyboard.press('Escape');
  await expect(grid.getByRole('gridcell', { name: 'S-776' })).toBeVisible();
  await expect(grid.getByRole('gridcell', { name: 'S-777' })).toBeVisible();
});
