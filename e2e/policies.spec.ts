import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './accounts';
import { DESKTOP, PHONE, expect, expectUsable, signIn, test } from './fixtures';
import { bearer } from './people';

const unique = () => Date.now().toString(36);

/**
 * An entity whose policies let contributors change and delete only the records they added
 * (unless `contributors` is false: an admin writes theirs on screen), and viewers read only
 * Lyon's records without their salary; a record of Lyon added by the `contributor` account,
 * and one of Lyon and one of Paris by the admin.
 */
async function policedEntity(request: APIRequestContext, contributors = true) {
  const admin = await bearer(request, 'admin');
  const name = `Staff_${unique()}`;
  const created = await request.post('/api/entities', {
    headers: admin,
    data: {
      name,
      fields: [
        { name: 'person', label: 'Person' },
        { name: 'site', label: 'Site', type: 'select', options: ['lyon', 'paris'] },
        { name: 'salary', label: 'Salary', type: 'number' },
      ],
    },
  });
  expect(created.status()).toBe(201);
  const entity = (await created.json()) as { _id: string };
  const mine = { match: 'all', clauses: [{ field: '_createdBy', op: 'eq', value: '$me' }] };
  const policies = await request.put(`/api/entities/${entity._id}/policies`, {
    headers: admin,
    data: {
      policies: [
        ...(contributors ? [{ role: 'contributor', update: mine, delete: mine }] : []),
        {
          role: 'viewer',
          read: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
          fields: { salary: 'hidden' },
        },
      ],
    },
  });
  expect(policies.status()).toBe(200);
  const add = async (headers: Record<string, string>, fields: object) =>
    expect(
      (await request.post(`/api/entity-records/${name}`, { headers, data: { fields } })).status(),
    ).toBe(201);
  await add(await bearer(request, 'contributor'), { person: 'Ada', site: 'lyon', salary: 5000 });
  // Someone else's: the admin's (no new account, which would change the users' list that
  // other tests read).
  await add(admin, { person: 'Carl', site: 'lyon', salary: 6000 });
  await add(admin, { person: 'Pia', site: 'paris', salary: 7000 });
  return { name, id: entity._id };
}

test('a contributor is offered Edit and Delete on the records they added only', async ({
  page,
  request,
}) => {
  const { name } = await policedEntity(request);
  await signIn(page, 'contributor', 'contributor123');
  await page.goto(`/entities/${name}`);
  const grid = page.getByRole('grid', { name: `${name} records` });
  const rowOf = (person: string) => grid.getByRole('row').filter({ hasText: person });
  await expect(rowOf('Ada').getByRole('button', { name: /^Edit record/ })).toBeVisible();
  await expect(rowOf('Ada').getByRole('button', { name: /^Delete record/ })).toBeVisible();
  await expect(rowOf('Carl')).toBeVisible();
  await expect(rowOf('Carl').getByRole('button', { name: /^Edit record/ })).toHaveCount(0);
  await expect(rowOf('Carl').getByRole('button', { name: /^Delete record/ })).toHaveCount(0);
  // Nor does a double click start editing someone else's record.
  await rowOf('Carl').getByText('Carl').dblclick();
  await expect(grid.getByRole('textbox')).toHaveCount(0);
  await expectUsable(page, 'records a policy narrows, as a contributor');
});

test('a viewer sees neither the hidden field nor the records outside the condition: grid, export, history', async ({
  page,
  request,
}) => {
  const { name } = await policedEntity(request);
  await signIn(page, 'viewer', 'viewer123');
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto(`/entities/${name}`);
    const grid = page.getByRole('grid', { name: `${name} records` });
    await expect(grid.getByText('Carl')).toBeVisible();
    await expect(grid.getByText('Pia')).toHaveCount(0);
    await expect(grid.getByRole('columnheader', { name: 'Salary' })).toHaveCount(0);
    await expect(page.getByText('of 2', { exact: false })).toBeVisible();
  }
  await page.setViewportSize(DESKTOP);

  await page.getByRole('button', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const text = await readFile((await (await downloading).path())!, 'utf8');
  const lines = text.trimEnd().split('\r\n');
  // The columns on screen: the hidden one is not among them, nor in any row.
  expect(lines[0]).toBe('\uFEFFPerson,Site');
  expect(text).not.toContain('5000');
  expect(
    lines
      .slice(1)
      .map((line) => line.split(',')[0])
      .sort(),
  ).toEqual(['Ada', 'Carl']);

  const grid = page.getByRole('grid', { name: `${name} records` });
  await grid
    .getByRole('row')
    .filter({ hasText: 'Ada' })
    .getByRole('button', { name: /^Versions of record/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Record versions' });
  await expect(dialog.getByRole('table', { name: 'Snapshot' })).toContainText('Ada');
  await expect(dialog).not.toContainText('Salary');
  await expect(dialog).not.toContainText('5000');
});

test('an admin writes "contributors update only the records they created" on the Access screen, previews as a contributor: Edit only on their own records, a banner, and one click back', async ({
  page,
  request,
}) => {
  const { name, id } = await policedEntity(request, false);
  const admin = await bearer(request, 'admin');
  const own = await request.post(`/api/entity-records/${name}`, {
    headers: admin,
    data: { fields: { person: 'Adm', site: 'paris', salary: 1 } },
  });
  expect(own.status()).toBe(201);
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);

  // The entity's form, then its Access tab: the viewers' policy is there, written before.
  await page.goto(`/entities/edit/${id}`);
  await page.getByRole('tab', { name: 'Access' }).click();
  await expect(page).toHaveURL(`/entities/edit/${id}/access`);
  await expect(page.getByRole('heading', { name: 'Policy of viewer' })).toBeVisible();
  await expectUsable(page, 'the Access screen');
  await page.getByRole('combobox', { name: 'Add a policy for' }).click();
  await page.getByRole('option', { name: 'contributor' }).click();
  await page.getByRole('button', { name: 'Add policy' }).click();
  const policy = page.getByRole('region', { name: 'Policy of contributor' });
  await policy.getByRole('combobox', { name: 'Records they may update' }).click();
  await page.getByRole('option', { name: 'Records matching all of these' }).click();
  // The first condition offered is the common one: created by the user ($me).
  const condition = policy.getByRole('group', { name: 'Updating: condition 1' });
  await expect(condition.getByRole('combobox', { name: 'Field' })).toHaveText('Created by');
  await expect(condition.getByRole('combobox', { name: 'Comparison' })).toHaveText('is');
  await expect(condition.getByRole('textbox', { name: 'Value' })).toHaveValue('$me');
  await expectUsable(page, 'a policy being written');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Access saved' })).toBeVisible();
  const stored = await request.get(`/api/entities/${id}`, { headers: admin });
  expect(((await stored.json()) as { policies: object[] }).policies).toContainEqual({
    role: 'contributor',
    update: { match: 'all', clauses: [{ field: '_createdBy', op: 'eq', value: '$me' }] },
  });

  await page.setViewportSize(DESKTOP);
  await page.goto('/roles');
  await expect(page.getByRole('link', { name: 'Audit' })).toBeVisible();
  await page.getByRole('button', { name: 'See the screens as contributor' }).click();
  const banner = page.getByRole('status').filter({ hasText: 'as the role contributor' });
  await expect(banner).toBeVisible();
  // What a contributor may not reach is gone from the navigation: the audit log.
  await expect(page.getByRole('link', { name: 'Audit' })).toHaveCount(0);
  await page.goto(`/entities/${name}`);
  // A page load ends the preview (it is not kept): the banner goes with it.
  await expect(banner).toHaveCount(0);
  await page.goto('/roles');
  await page.getByRole('button', { name: 'See the screens as contributor' }).click();
  await expect(banner).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Entities' })
    .click();
  await page.getByRole('link', { name }).click();
  const grid = page.getByRole('grid', { name: `${name} records` });
  const rowOf = (person: string) => grid.getByRole('row').filter({ hasText: person });
  await expect(rowOf('Adm').getByRole('button', { name: /^Edit record/ })).toBeVisible();
  await expect(rowOf('Ada')).toBeVisible();
  await expect(rowOf('Ada').getByRole('button', { name: /^Edit record/ })).toHaveCount(0);
  await expectUsable(page, 'an admin previewing as a contributor');

  await banner.getByRole('button', { name: 'Back to my view' }).click();
  await expect(banner).toHaveCount(0);
  await expect(rowOf('Ada').getByRole('button', { name: /^Edit record/ })).toBeVisible();
  const audit = await request.get('/api/audit?action=auth.preview', { headers: admin });
  expect(((await audit.json()) as { events: { summary: string }[] }).events[0]!.summary).toBe(
    'Previewed the screens as the role contributor',
  );
});
