import type { APIRequestContext } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './accounts';
import {
  DESKTOP,
  PHONE,
  expect,
  expectUsable,
  signIn,
  test,
  waitForNetworkQuiet,
} from './fixtures';
import { tabTo } from './keyboard';
import { bearer, secondPerson } from './people';

const unique = () => Date.now().toString(36);

/**
 * Another administrator, signed in through the API: what they change is someone else's
 * change to the admin of the browser (the same account in two places is one person).
 */
async function anotherAdmin(request: APIRequestContext) {
  const admin = await bearer(request, 'admin');
  const roles = await (await request.get('/api/roles', { headers: admin })).json();
  const adminRole = roles.find((role: { name: string }) => role.name === 'admin');
  const username = `admin_${unique()}`;
  const created = await request.post('/api/users', {
    headers: admin,
    data: { username, password: 'another-admin-password', roles: [adminRole._id] },
  });
  expect(created.status()).toBe(201);
  const login = await request.post('/api/auth/login', {
    data: { username, password: 'another-admin-password' },
  });
  return { username, headers: { authorization: `Bearer ${(await login.json()).jwt}` } };
}

/** An entity of `fields` (text), with one record of `values`; answers its name. */
async function entityWithRecord(
  request: APIRequestContext,
  fields: string[],
  values: Record<string, string>,
) {
  const admin = await bearer(request, 'admin');
  const name = `Edit_${unique()}`;
  const created = await request.post('/api/entities', {
    headers: admin,
    data: { name, description: '', fields: fields.map((field) => ({ name: field, label: field })) },
  });
  expect(created.status()).toBe(201);
  const record = await request.post(`/api/entity-records/${name}`, {
    headers: admin,
    data: { fields: values },
  });
  expect(record.status()).toBe(201);
  return name;
}

test.describe('an edit that someone else deletes meanwhile', () => {
  test('a record row keeps what was typed, names who deleted it, and comes back with it', async ({
    page,
    request,
    browser,
  }) => {
    const name = await entityWithRecord(request, ['label'], { label: 'first' });
    await signIn(page, 'contributor', 'contributor123');
    await page.goto(`/entities/${name}`);
    const grid = page.getByRole('grid', { name: `${name} records` });
    await grid.getByRole('button', { name: 'Edit record 1' }).click();
    await grid.getByRole('textbox', { name: /label/ }).fill('typed by contributor');

    // The admin sees who is editing which record, and is told so before deleting it.
    const admin = await secondPerson(browser, 'admin');
    await admin.goto(`/entities/${name}`);
    await expect(admin.getByText('contributor is editing the record «first».')).toBeVisible();
    await admin
      .getByRole('grid', { name: `${name} records` })
      .getByRole('button', { name: 'Delete record 1' })
      .click();
    const question = admin.getByRole('dialog', { name: 'Delete record' });
    await expect(question).toContainText('Delete the record «first»? contributor is editing it.');
    await question.getByRole('button', { name: 'Delete' }).click();
    await expect(question).toHaveCount(0);

    const notice = page.getByRole('alert', {
      name: 'admin deleted the record «first» while you were editing it',
    });
    await expect(notice).toBeVisible({ timeout: 3000 });
    await expect(grid.getByRole('textbox', { name: /label/ })).toHaveValue('typed by contributor');
    await expectUsable(page, 'a record row deleted while being edited');
    await page.setViewportSize(DESKTOP);

    await notice.getByRole('button', { name: 'Restore and apply mine' }).click();
    await expect(notice).toHaveCount(0);
    await expect(grid.getByRole('gridcell', { name: 'typed by contributor' })).toBeVisible();
    // The admin's grid has it back, with the contributor's values.
    await expect(
      admin
        .getByRole('grid', { name: `${name} records` })
        .getByRole('gridcell', { name: 'typed by contributor' }),
    ).toBeVisible({ timeout: 3000 });
    await admin.context().close();
  });

  test('a user row keeps what was typed; Copy my values copies it, Discard drops it', async ({
    page,
    request,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const admin = await bearer(request, 'admin');
    const other = await anotherAdmin(request);
    const username = `gone_${unique()}`;
    const created = await request.post('/api/users', {
      headers: admin,
      data: { username, password: 'a-good-password', roles: [] },
    });
    expect(created.status()).toBe(201);
    const user = await created.json();

    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.goto('/users');
    const grid = page.getByRole('grid', { name: 'Users' });
    await grid.getByRole('button', { name: `Edit ${username}` }).click();
    await grid.getByRole('textbox', { name: 'Username' }).fill(`${username}_renamed`);

    const deleted = await request.delete(`/api/users/${user._id}`, { headers: other.headers });
    expect(deleted.status()).toBe(204);
    const notice = page.getByRole('alert', {
      name: `${other.username} deleted the user ${username} while you were editing it`,
    });
    await expect(notice).toBeVisible({ timeout: 3000 });
    // Users have no history to restore from.
    await expect(notice.getByRole('button', { name: 'Restore and apply mine' })).toHaveCount(0);
    await notice.getByRole('button', { name: 'Copy my values' }).click();
    await expect(notice.getByRole('status')).toHaveText('Your values are on the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `Username: ${username}_renamed\nEmail: `,
    );
    await expect(grid.getByRole('textbox', { name: 'Username' })).toHaveValue(
      `${username}_renamed`,
    );

    await notice.getByRole('button', { name: 'Discard' }).click();
    await expect(notice).toHaveCount(0);
    await expect(grid.getByText(username)).toHaveCount(0);
  });

  test('the entity form keeps what was typed, and Restore and apply mine saves it', async ({
    page,
    request,
    consoleErrors,
  }) => {
    const name = await entityWithRecord(request, ['label'], { label: 'kept' });
    const admin = await bearer(request, 'admin');
    const other = await anotherAdmin(request);
    const entity = await (await request.get(`/api/entities/${name}`, { headers: admin })).json();

    await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
    await page.goto(`/entities/edit/${entity._id}`);
    await page.getByLabel('Description').fill('described while it was deleted');
    await waitForNetworkQuiet(page);

    const deleted = await request.delete(`/api/entities/${entity._id}`, {
      headers: other.headers,
    });
    expect(deleted.status()).toBe(204);
    const notice = page.getByRole('alert', {
      name: `${other.username} deleted the entity ${name} while you were editing it`,
    });
    await expect(notice).toBeVisible({ timeout: 3000 });
    await expect(page.getByLabel('Description')).toHaveValue('described while it was deleted');
    // Reading it again failed: the shared handler logged that, as it logs every failure.
    await expect
      .poll(() => consoleErrors)
      .toContainEqual(expect.stringContaining('Error fetching entities'));
    consoleErrors.splice(0);
    await expectUsable(page, 'the entity form of a deleted entity');
    await page.setViewportSize(DESKTOP);

    await notice.getByRole('button', { name: 'Restore and apply mine' }).click();
    await expect(notice).toHaveCount(0);
    // Saved, and said so as a Save says it.
    await expect(
      page.getByRole('alert').filter({ hasText: 'Entity saved successfully!' }),
    ).toBeVisible();
    const stored = await request.get(`/api/entities/${entity._id}`, { headers: admin });
    expect(stored.status()).toBe(200);
    expect((await stored.json()).description).toBe('described while it was deleted');
  });
});

test('presence names the record and ends when the editor closes the tab', async ({
  page,
  request,
  browser,
}) => {
  const name = await entityWithRecord(request, ['label'], { label: 'shared' });
  await signIn(page, 'admin', E2E_ADMIN_PASSWORD);
  await page.goto(`/entities/${name}`);
  const editor = await secondPerson(browser, 'contributor');
  await editor.goto(`/entities/${name}`);
  await editor
    .getByRole('grid', { name: `${name} records` })
    .getByRole('button', { name: 'Edit record 1' })
    .click();
  const presence = page.getByText('contributor is editing the record «shared».');
  await expect(presence).toBeVisible();

  await editor.context().close();
  // Within seconds, not when the presence would have expired (30 s).
  await expect(presence).toHaveCount(0, { timeout: 5000 });
});

test('a book is corrected in its edit form, by keyboard alone', async ({ page, request }) => {
  const admin = await bearer(request, 'admin');
  const title = `Misspelt ${unique()}`;
  await request.post('/api/books/add', { headers: admin, data: { title, isbn: null } });
  await signIn(page, 'contributor', 'contributor123');
  await page.goto('/books');
  const edit = page.getByRole('link', { name: `Edit ${title}` });
  await tabTo(page, edit, 60);
  await page.keyboard.press('Enter');

  const form = page.getByRole('form', { name: 'Edit book' });
  await expect(page.getByRole('heading', { name: `Edit ${title}` })).toBeVisible();
  await expect(form.getByLabel('Title')).toBeFocused();
  await expectUsable(page, 'the book edit form');
  await page.setViewportSize(DESKTOP);
  await form.getByLabel('Title').press('ControlOrMeta+a');
  await page.keyboard.type(`${title} (fixed)`);
  await page.keyboard.press('Tab');
  await page.keyboard.type('An Author');
  await page.keyboard.press('Tab');
  // An ISBN the server refuses is said under its input; nothing is lost.
  await page.keyboard.type('12345');
  await page.keyboard.press('Enter');
  await expect(form.getByText('must be a valid ISBN-10 or ISBN-13')).toBeVisible();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0261102214');
  await page.keyboard.press('Enter');

  await page.waitForURL((url) => url.pathname === '/books');
  const card = page.getByRole('listitem', { name: `${title} (fixed)` });
  await expect(card).toContainText('An Author · ISBN 0261102214');
});

test('on a phone the record grid keeps its actions, its page size and its hidden columns in reach', async ({
  page,
  request,
}) => {
  const fields = ['make', 'model', 'colour', 'engine', 'owner'];
  const name = await entityWithRecord(request, fields, {
    make: 'Ford',
    model: 'Focus',
    colour: 'red',
    engine: 'petrol',
    owner: 'ada',
  });
  await signIn(page, 'contributor', 'contributor123');
  await page.setViewportSize(PHONE);
  await page.goto(`/entities/${name}`);
  const grid = page.getByRole('grid', { name: `${name} records` });
  await expect(grid.getByRole('gridcell', { name: 'Ford' })).toBeVisible();

  // The actions come first, in sight without scrolling sideways.
  for (const action of ['Edit record 1', 'Versions of record 1', 'Delete record 1']) {
    const box = (await grid.getByRole('button', { name: action }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  }
  // The page size can be chosen.
  await expect(page.getByRole('combobox', { name: /Rows per page/ })).toBeVisible();

  // The columns out of sight are named; choosing one scrolls the grid to it.
  const columns = page.getByRole('navigation', { name: `${name} records: columns out of sight` });
  const owner = columns.getByRole('button', { name: 'Scroll to the owner column' });
  await expect(owner).toBeVisible();
  await owner.click();
  const ownerCell = grid.getByRole('gridcell', { name: 'ada' });
  await expect(ownerCell).toBeInViewport();
  // The button went with the column's coming into sight: the keyboard is on its header.
  await expect(grid.getByRole('columnheader', { name: 'owner' })).toBeFocused();
  await expect(columns.getByRole('button', { name: 'Scroll to the make column' })).toBeVisible();

  // The actions are named too, once scrolled past: back to them, and editing works.
  await columns.getByRole('button', { name: 'Scroll to the Actions column' }).click();
  await grid.getByRole('button', { name: 'Edit record 1' }).click();
  await expect(grid.getByRole('button', { name: 'Save record 1' })).toBeInViewport();
  await expectUsable(page, 'the record grid on a phone, a row being edited');
});

test("a book's edit form: untouched, it takes another's save; typed, Apply mine keeps their other change", async ({
  page,
  request,
}) => {
  const admin = await bearer(request, 'admin');
  const title = `Shared ${unique()}`;
  const book = await (
    await request.post('/api/books/add', { headers: admin, data: { title, author: 'First' } })
  ).json();
  await signIn(page, 'contributor', 'contributor123');
  await page.goto(`/book/${book._id}/edit`);
  const form = page.getByRole('form', { name: 'Edit book' });
  await expect(form.getByLabel('Author')).toHaveValue('First');
  await waitForNetworkQuiet(page);

  // Nothing typed: their save simply shows.
  const saved = await request.put(`/api/books/${book._id}`, {
    headers: admin,
    data: { title, author: 'Second', _version: 1 },
  });
  expect(saved.status()).toBe(200);
  await expect(form.getByLabel('Author')).toHaveValue('Second', { timeout: 3000 });
  await expect(page.getByText(/Changed by/)).toHaveCount(0);

  // Typed: their next save is a change to review; Apply mine keeps theirs where I typed nothing.
  await form.getByLabel(/Title/).fill(`${title} (mine)`);
  await request.put(`/api/books/${book._id}`, {
    headers: admin,
    data: { title, author: 'Third', _version: 2 },
  });
  await page.getByRole('button', { name: 'Review' }).click({ timeout: 3000 });
  await page.getByRole('dialog').getByRole('button', { name: 'Apply mine' }).click();
  await page.waitForURL((url) => url.pathname === '/books');
  const stored = await (await request.get(`/api/books/${book._id}`, { headers: admin })).json();
  expect(stored).toMatchObject({ title: `${title} (mine)`, author: 'Third', _version: 4 });
  // Back on the list, the keyboard is on the book.
  await expect(page.getByRole('listitem', { name: `${title} (mine)` })).toBeFocused();
});
