import { expect, signIn, test } from './fixtures';

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
  await expect(dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem')).toHaveCount(2);
  await expect(dialog).toContainText('titleThe Hobbit, or There and Back Again');
  await expect(dialog).toContainText('authorTolkien');
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
