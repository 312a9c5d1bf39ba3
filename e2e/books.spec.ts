import {
  expect,
  expectUsable,
  logOut,
  registerWithoutRole,
  signIn,
  test,
  waitForNetworkQuiet,
} from './fixtures';
import { expectFocusShows, tabTo } from './keyboard';

test('the book library: scroll for more, add, look up, Use This, versions, delete', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await signIn(page, 'contributor', 'contributor123');
  await page.getByRole('link', { name: 'Open the book library' }).click();
  const books = page.getByRole('list', { name: 'Books' }).getByRole('listitem');
  await expect(books).toHaveCount(10);

  // Scrolling to the bottom loads page 2.
  const pageTwo = page.waitForRequest((r) => r.url().includes('/api/books?page=2&perPage=10'));
  await page.mouse.wheel(0, 20_000);
  await pageTwo;
  await expect(books).toHaveCount(20);

  // Add a book.
  await page.getByRole('link', { name: 'Add Book' }).click();
  const title = `Hobbit ${Date.now().toString(36)}`;
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Author').fill('Tolkien');
  await page.getByRole('button', { name: 'Add Book' }).click();
  const hobbit = page.getByRole('listitem', { name: title, exact: true });
  await expect(hobbit).toBeVisible();

  // Look it up and use what was found.
  await hobbit.getByRole('button', { name: title, exact: true }).click();
  const results = hobbit.getByRole('list', { name: 'Search results' });
  await expect(results).toContainText('Authors: J. R. R. Tolkien, Christopher Tolkien');
  await expect(results).toContainText('ISBN: 9780261102217');
  await results.getByRole('button', { name: 'Use This' }).click();
  const updated = page.getByRole('listitem', { name: 'The Hobbit, or There and Back Again' });
  await expect(updated).toContainText('J. R. R. Tolkien, Christopher Tolkien · ISBN 9780261102217');
  await expect(page.getByRole('list', { name: 'Search results' })).toHaveCount(0);

  // Two versions: the one added, the one updated.
  await updated.getByRole('button', { name: 'Versions' }).click();
  const dialog = page.getByRole('dialog', { name: /^Versions of/ });
  await expect(dialog.getByRole('list', { name: 'Versions' }).locator(':scope > li')).toHaveCount(
    2,
  );
  await expect(dialog).toContainText('TitleThe Hobbit, or There and Back Again');
  await expect(dialog).toContainText('AuthorTolkien');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Delete it.
  await updated.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete book' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(
    page.getByRole('listitem', { name: 'The Hobbit, or There and Back Again' }),
  ).toHaveCount(0);
});

test('a long title without spaces wraps within its card, on a phone too', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, 'contributor', 'contributor123');
  await page.goto('/book');
  const title = `Longword${Date.now().toString(36)}${'x'.repeat(260)}`;
  await page.getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Add Book' }).click();
  const card = page.getByRole('listitem', { name: title, exact: true });
  await expect(card).toBeVisible();
  const overflow = await card.evaluate((item) =>
    [item, ...item.querySelectorAll('*')].some(
      (el) => el.getBoundingClientRect().right > item.getBoundingClientRect().right + 1,
    ),
  );
  expect(overflow).toBe(false);
});

test.describe('the book screens, at 1280 and 390 px', () => {
  test('every state passes axe and fits; dialogs hold the keyboard and give it back', async ({
    page,
  }) => {
    await signIn(page, 'contributor', 'contributor123');
    // A book of this test's own, changed 5 times: its history is longer than the dialog.
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    const headers = { authorization: `Bearer ${token}` };
    const title = `Dune ${Date.now().toString(36)}`;
    const added = await page.request.post('/api/books/add', { headers, data: { title } });
    const { _id } = (await added.json()) as { _id: string };
    for (const author of ['Frank Herbert', 'F. Herbert', 'Herbert', 'F. P. Herbert', 'Frank']) {
      expect(
        (await page.request.put(`/api/books/${_id}`, { headers, data: { title, author } })).ok(),
      ).toBe(true);
    }
    await page.goto('/books');
    const books = page.getByRole('list', { name: 'Books' }).getByRole('listitem');
    await expect(books).toHaveCount(10);
    await expectUsable(page, '/books');

    // A lookup's results.
    const first = page.getByRole('listitem', { name: title, exact: true });
    await first.getByRole('button').first().click();
    await expect(first.getByRole('list', { name: 'Search results' })).toBeVisible();
    await expectUsable(page, 'a book with its lookup results');

    // The versions dialog: focus inside while open, back on its button when closed.
    const versionsButton = first.getByRole('button', { name: 'Versions' });
    await versionsButton.click();
    const versions = page.getByRole('dialog', { name: /^Versions of/ });
    await expect(
      versions.getByRole('list', { name: 'Versions' }).locator(':scope > li'),
    ).toHaveCount(6);
    await expectUsable(page, 'the versions dialog');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await versions.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(versions).toHaveCount(0);
    await expect(versionsButton).toBeFocused();

    // The delete confirmation: Cancel has the focus, Escape gives it back to Delete.
    const deleteButton = first.getByRole('button', { name: 'Delete' });
    await deleteButton.click();
    const confirm = page.getByRole('dialog', { name: 'Delete book' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectUsable(page, 'the delete confirmation');
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(deleteButton).toBeFocused();

    // The add form, with what the checks say.
    await page.goto('/book');
    await page.getByRole('button', { name: 'Add Book' }).click();
    await expect(page.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
    await expectUsable(page, 'the add-book form with its errors');
  });

  test('a viewer reads the books, and a user with no role is told why not', async ({ page }) => {
    await signIn(page, 'viewer', 'viewer123');
    await page.goto('/books');
    await expect(page.getByRole('list', { name: 'Books' }).getByRole('listitem')).toHaveCount(10);
    await expectUsable(page, '/books for a viewer');

    await logOut(page);
    await registerWithoutRole(page);
    await page.goto('/books');
    await expect(
      page
        .getByRole('main')
        .getByRole('alert')
        .or(page.getByRole('main').getByRole('status'))
        .first(),
    ).toBeVisible();
    await waitForNetworkQuiet(page);
    await expectUsable(page, '/books for a user with no role');
  });
});

test("by keyboard: a book's actions are Tab stops that show the focus; Enter looks it up, and after Use This the focus is on the book again", async ({
  page,
}) => {
  await signIn(page, 'contributor', 'contributor123');
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const title = `Emma ${Date.now().toString(36)}`;
  const added = await page.request.post('/api/books/add', {
    headers: { authorization: `Bearer ${token}` },
    data: { title },
  });
  expect(added.ok()).toBe(true);
  await page.goto('/books');
  // The newest book comes first: this test's own.
  const card = page.getByRole('list', { name: 'Books' }).getByRole('listitem').first();
  await expect(card).toHaveAccessibleName(title);

  const lookUp = card.getByRole('button', { name: title, exact: true });
  await tabTo(page, lookUp);
  await tabTo(page, card.getByRole('link', { name: `Edit ${title}` }), 1);
  await tabTo(page, card.getByRole('button', { name: 'Versions' }), 1);
  await tabTo(page, card.getByRole('button', { name: 'Delete' }), 1);

  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(lookUp).toBeFocused();
  await page.keyboard.press('Enter');
  const useThis = card.getByRole('list', { name: 'Search results' }).getByRole('button', {
    name: 'Use This',
  });
  await tabTo(page, useThis, 1);
  await page.keyboard.press('Enter');
  await expect(card).toHaveAccessibleName('The Hobbit, or There and Back Again');
  await expect(card.getByRole('list', { name: 'Search results' })).toHaveCount(0);
  await expect(
    card.getByRole('button', { name: 'The Hobbit, or There and Back Again', exact: true }),
  ).toBeFocused();
});

test('by keyboard: after a confirmed delete the focus is on the next book', async ({ page }) => {
  await signIn(page, 'contributor', 'contributor123');
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const suffix = Date.now().toString(36);
  for (const title of [`Kept ${suffix}`, `Deleted ${suffix}`]) {
    const added = await page.request.post('/api/books/add', {
      headers: { authorization: `Bearer ${token}` },
      data: { title },
    });
    expect(added.ok()).toBe(true);
  }
  await page.goto('/books');
  // Newest first: the one to delete, then the one kept.
  const deleted = page.getByRole('listitem', { name: `Deleted ${suffix}`, exact: true });
  const kept = page.getByRole('listitem', { name: `Kept ${suffix}`, exact: true });
  await tabTo(page, deleted.getByRole('button', { name: 'Delete', exact: true }));
  await expectFocusShows(kept, async () => {
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Delete book' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(deleted).toHaveCount(0);
  });
  await page.keyboard.press('Tab');
  await expect(kept.getByRole('button', { name: `Kept ${suffix}`, exact: true })).toBeFocused();
});

test('a deleted book comes back from "Recently deleted" with its id and its history', async ({
  page,
}) => {
  await signIn(page, 'contributor', 'contributor123');
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const headers = { authorization: `Bearer ${token}` };
  const title = `Solaris ${Date.now().toString(36)}`;
  const added = await page.request.post('/api/books/add', { headers, data: { title } });
  const { _id } = (await added.json()) as { _id: string };
  await page.goto('/books');
  const card = page.getByRole('listitem', { name: title, exact: true });
  await card.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete book' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(card).toHaveCount(0);

  const opener = page.getByRole('button', { name: 'Recently deleted' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Recently deleted books' });
  await expect(dialog.getByText(title)).toBeVisible();
  await expect(dialog).toContainText('Deleted by contributor');
  await expectUsable(page, 'the recently deleted books');
  await dialog.getByRole('button', { name: `Restore ${title}` }).click();
  await expect(dialog.getByRole('status')).toHaveText(`Restored ${title}.`);
  await expect(dialog.getByText(title, { exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(opener).toBeFocused();
  await expect(card).toBeVisible();

  const history = await page.request.get(`/api/books/${_id}/versions`, { headers });
  expect(((await history.json()) as { action: string }[]).map((v) => v.action)).toEqual([
    'restore',
    'delete',
    'create',
  ]);
});
