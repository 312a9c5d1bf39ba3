/**
 * The cache after each change of an entity definition: the navigation's Entities menu and
 * /entities show the new state on a second visit, with no second request for the list
 * beyond the one a create makes.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import type { Entity } from '@common/schemas/entities';
import { setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const entity = (name: string, category: string): Entity => ({
  _id: `id-${name}`,
  _version: 1,
  name,
  description: `About ${name}`,
  category,
  fields: [{ name: 'title', label: 'Title' }],
});
let defined: Entity[];
beforeEach(() => {
  defined = [entity('Car', 'Vehicles'), entity('Note', 'Generic')];
});
const body = async (request: Request) => (await request.json()) as Record<string, unknown>;

const network = setupNetwork(
  http.get('/api/entities', () => HttpResponse.json(defined)),
  http.get('/api/entities/id-Car', () => HttpResponse.json(defined[0])),
  http.post('/api/entities', async ({ request }) => {
    const created = { _id: 'id-Boat', _version: 1, ...(await body(request)) } as Entity;
    defined = [...defined, created];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.put('/api/entities/id-Car', async ({ request }) => {
    const sent = await body(request);
    const stored = { ...defined[0]!, ...sent } as Entity;
    delete (stored as Partial<Entity> & { entityId?: unknown }).entityId;
    stored._id = 'id-Car';
    defined = defined.map((e) => (e._id === 'id-Car' ? stored : e));
    return HttpResponse.json(stored);
  }),
  http.delete('/api/entities/id-Car', () => {
    defined = defined.filter((e) => e._id !== 'id-Car');
    return new HttpResponse(null, { status: 204 });
  }),
);
const asAdmin = signedInAs('admin', ['admin']);
type AppRouter = ReturnType<typeof renderApp>['router'];

/** The entity names the navigation's Entities menu offers, once loaded (then closes it). */
async function entityMenu() {
  await userEvent.click(screen.getByRole('button', { name: 'Entities' }));
  const menu = await screen.findByRole('navigation', { name: 'Entities' });
  // Manage... at once; the entities once the list has come (every test here has some).
  await waitFor(() => expect(within(menu).getAllByRole('link').length).toBeGreaterThan(1));
  const names = within(menu)
    .getAllByRole('link')
    .map((item) => item.textContent)
    .filter((name) => name !== 'Manage...');
  await userEvent.keyboard('{Escape}');
  await waitFor(() =>
    expect(screen.queryByRole('navigation', { name: 'Entities' })).not.toBeInTheDocument(),
  );
  return names;
}

/** Goes to the home page, then to /entities, and waits for the cards. */
async function visitEntities(router: AppRouter) {
  await act(() => router.navigate('/'));
  await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  await act(() => router.navigate('/entities'));
  await screen.findByRole('link', { name: 'Add Entity' });
}

describe('entity definitions: the cache after each mutation', () => {
  it('a new entity shows in the menu and on /entities after the one reload the create makes', async () => {
    const { router } = renderApp('/entities/add', asAdmin);
    // The menu loads the list when first opened.
    expect(await entityMenu()).toEqual(['Note', 'Car']);
    expect(network.calls('GET /api/entities')).toHaveLength(1);
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Boat');
    await userEvent.type(
      within(screen.getByRole('group', { name: 'Field 1' })).getByLabelText(/Field name/),
      'hull',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add Entity' }));
    expect(await screen.findByText(t('entities.added'))).toBeInTheDocument();
    // The create invalidates the list (a new entity's place is the server's to say): the
    // menu, opened again, loads it once.
    expect(await entityMenu()).toContain('Boat');
    expect(network.calls('GET /api/entities')).toHaveLength(2);

    await visitEntities(router);
    expect(screen.getByLabelText('Boat')).toBeInTheDocument();
    expect(await entityMenu()).toEqual(['Boat', 'Note', 'Car']);
    expect(network.calls('GET /api/entities')).toHaveLength(2);
  });

  it('an edited entity shows as stored on /entities and in its form, without a refetch', async () => {
    const { router } = renderApp('/entities/edit/id-Car', asAdmin);
    await userEvent.clear(await screen.findByLabelText(/^Category/));
    await userEvent.type(screen.getByLabelText(/^Category/), 'Fleet');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(t('entities.saved'))).toBeInTheDocument();

    await visitEntities(router);
    expect(within(screen.getByLabelText('Car')).getByText('Fleet')).toBeInTheDocument();
    expect(await entityMenu()).toEqual(['Car', 'Note']);
    await act(() => router.navigate('/entities/edit/id-Car'));
    expect(await screen.findByLabelText(/^Category/)).toHaveValue('Fleet');
    expect(network.calls('PUT /api/entities/id-Car')).toHaveLength(1);
    expect(network.calls('GET /api/entities')).toHaveLength(1);
    expect(network.calls('GET /api/entities/id-Car')).toHaveLength(1);
  });

  it('a deleted entity leaves the menu and /entities, without a refetch', async () => {
    const { router } = renderApp('/entities', asAdmin);
    const card = await screen.findByLabelText('Car');
    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete entity' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByLabelText('Car')).not.toBeInTheDocument());

    await visitEntities(router);
    expect(screen.getByLabelText('Note')).toBeInTheDocument();
    expect(screen.queryByLabelText('Car')).not.toBeInTheDocument();
    expect(await entityMenu()).toEqual(['Note']);
    expect(network.calls('DELETE /api/entities/id-Car')).toHaveLength(1);
    expect(network.calls('GET /api/entities')).toHaveLength(1);
  });
});
