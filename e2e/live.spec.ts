import { DESKTOP, expect, expectUsable, signIn, test } from './fixtures';
import { bearer, secondPerson } from './people';

test.describe('screens that follow what others do', () => {
  test("a contributor renames a book: the viewer's /books shows the new title without a reload", async ({
    page,
    request,
  }) => {
    const admin = await bearer(request, 'admin');
    const title = `Live ${Date.now().toString(36)}`;
    const book = await (
      await request.post('/api/books/add', { headers: admin, data: { title } })
    ).json();

    await signIn(page, 'viewer', 'viewer123');
    await page.goto('/books');
    await expect(page.getByRole('listitem', { name: title })).toBeVisible();

    const contributor = await bearer(request, 'contributor');
    const renamed = await request.put(`/api/books/${book._id}`, {
      headers: contributor,
      data: { title: `${title} (renamed)` },
    });
    expect(renamed.status()).toBe(200);
    await expect(page.getByRole('listitem', { name: `${title} (renamed)` })).toBeVisible({
      timeout: 2000,
    });
  });

  test('two people edit one record: the second save shows both changes, and Apply mine saves', async ({
    page,
    request,
    browser,
  }) => {
    const admin = await bearer(request, 'admin');
    const name = `Live_${Date.now().toString(36)}`;
    await request.post('/api/entities', {
      headers: admin,
      data: { name, description: '', fields: [{ name: 'label', label: 'Label' }] },
    });
    await request.post(`/api/entity-records/${name}`, {
      headers: admin,
      data: { fields: { label: 'first' } },
    });

    await signIn(page, 'contributor', 'contributor123');
    const other = await secondPerson(browser, 'admin');
    const grids = [page, other].map((person) =>
      person.getByRole('grid', { name: `${name} records` }),
    );
    for (const [index, person] of [page, other].entries()) {
      await person.goto(`/entities/${name}`);
      await expect(grids[index]!.getByText('first')).toBeVisible();
      await grids[index]!.getByRole('button', { name: 'Edit record 1' }).click();
    }
    // Each sees that the other is editing the row.
    await expect(page.getByText('admin is editing the record «first».')).toBeVisible();
    await expect(other.getByText('contributor is editing the record «first».')).toBeVisible();
    await expectUsable(page, 'the record grid while someone else edits a row');
    await page.setViewportSize(DESKTOP);

    await grids[0]!.getByRole('textbox', { name: /Label/ }).fill('theirs');
    await grids[0]!.getByRole('button', { name: 'Save record 1' }).click();
    await expect(grids[0]!.getByText('theirs')).toBeVisible();
    // The other's row stays in edit mode, and says someone saved it meanwhile.
    await expect(other.getByText(/Changed by contributor — review/)).toBeVisible({ timeout: 2000 });

    await grids[1]!.getByRole('textbox', { name: /Label/ }).fill('mine');
    await grids[1]!.getByRole('button', { name: 'Save record 1' }).click();
    const dialog = other.getByRole('dialog', {
      name: 'contributor changed the record «first» while you were editing',
    });
    const row = dialog.getByRole('row', { name: /^Label/ });
    await expect(row.getByText('first → theirs')).toBeVisible();
    await expect(row.getByText('first → mine')).toBeVisible();
    await expectUsable(other, 'the conflict dialog');
    await other.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Apply mine' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(grids[1]!.getByText('mine')).toBeVisible();
    // And the first person's grid follows.
    await expect(grids[0]!.getByText('mine')).toBeVisible({ timeout: 2000 });
    await other.context().close();
  });

  test("an admin takes GET /api/books from viewers: the viewer's page says so without a reload", async ({
    page,
    request,
  }) => {
    const admin = await bearer(request, 'admin');
    const routes = await (await request.get('/api/routes', { headers: admin })).json();
    const listBooks = routes.find(
      (route: { routeVerb: string; routePath: string }) =>
        route.routeVerb === 'GET' && route.routePath === '/api/books',
    );
    await signIn(page, 'viewer', 'viewer123');
    await page.goto('/books');
    await expect(page.getByRole('list', { name: 'Books' })).toBeVisible();
    try {
      await request.put(`/api/routes/${listBooks._id}`, {
        headers: admin,
        data: { allowedRoles: ['admin', 'contributor'] },
      });
      await expect(page.getByText('Your role does not allow reading the books.')).toBeVisible({
        timeout: 2000,
      });
      await expect(page.getByRole('list', { name: 'Books' })).toHaveCount(0);
    } finally {
      await request.put(`/api/routes/${listBooks._id}`, {
        headers: admin,
        data: { allowedRoles: listBooks.allowedRoles },
      });
    }
    // Given back, the books come back too.
    await expect(page.getByRole('list', { name: 'Books' })).toBeVisible({ timeout: 2000 });
  });
});
