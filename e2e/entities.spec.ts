import { E2E_ADMIN_PASSWORD } from './accounts';
import { expect, signIn, test } from './fixtures';

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
  const versions = dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem');
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
