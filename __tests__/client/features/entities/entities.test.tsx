import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import type { Entity } from '@common/schemas/entities';
import { stripToIdentifier } from '@common/schemas/entities';
import { groupByCategory } from '@/lib/entityCategories';
import { apiError, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const entity = (name: string, category: string): Entity => ({
  _id: `id-${name}`,
  _version: 1,
  name,
  description: `About ${name}`,
  category,
  fields: [{ name: 'title', label: 'Title' }],
});
const defined = [entity('Truck', 'Vehicles'), entity('Note', 'Generic'), entity('Car', 'Vehicles')];
const asAdmin = signedInAs('admin', ['admin']);
const car = entity('Car', 'Vehicles');

const network = setupNetwork(http.get('/api/entities/id-Car', () => HttpResponse.json(car)));
const body = async (request: Request) => (await request.json()) as Record<string, unknown>;

describe('stripToIdentifier', () => {
  it('keeps only letters, digits and underscore', () => {
    expect(stripToIdentifier('My Entity-2!_ok')).toBe('MyEntity2_ok');
    expect(stripToIdentifier('été')).toBe('t');
  });
});

describe('groupByCategory', () => {
  it('groups the entities by category, both in alphabetical order', () => {
    expect(
      groupByCategory(defined).map(([category, members]) => [category, members.map((e) => e.name)]),
    ).toEqual([
      ['Generic', ['Note']],
      ['Vehicles', ['Car', 'Truck']],
    ]);
  });
});

describe('the Entities dropdown', () => {
  it('offers Manage... and the entities grouped by category, each linking to its records', async () => {
    network.use(http.get('/api/entities', () => HttpResponse.json(defined)));
    renderApp('/', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Entities' }));
    const menu = await screen.findByRole('navigation', { name: 'Entities' });
    await within(menu).findByRole('link', { name: 'Car' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((item) => item.textContent),
    ).toEqual(['Manage...', 'Note', 'Car', 'Truck']);
    const vehicles = within(menu).getByRole('list', { name: 'Vehicles' });
    expect(within(vehicles).getByRole('link', { name: 'Car' })).toHaveAttribute(
      'href',
      '/entities/Car',
    );
  });
});

describe('/entities', () => {
  it('shows the definitions as cards with their fields, edit, records and delete', async () => {
    network.use(http.get('/api/entities', () => HttpResponse.json(defined)));
    renderApp('/entities', asAdmin);
    const card = await screen.findByLabelText('Car');
    expect(card).toHaveTextContent('Vehicles');
    expect(card).toHaveTextContent('About Car');
    expect(card).toHaveTextContent('Title (title)');
    expect(within(card).getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/entities/edit/id-Car',
    );
    expect(within(card).getByRole('link', { name: 'Records' })).toHaveAttribute(
      'href',
      '/entities/Car',
    );
    expect(screen.getByRole('link', { name: 'Add Entity' })).toHaveAttribute(
      'href',
      '/entities/add',
    );
  });
});

describe('what each role sees on /entities', () => {
  beforeEach(() => network.use(http.get('/api/entities', () => HttpResponse.json(defined))));

  it('admin sees Add Entity, and Records, Edit and Delete on each card', async () => {
    renderApp('/entities', asAdmin);
    const card = await screen.findByLabelText('Car');
    expect(within(card).getByRole('link', { name: 'Records' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Edit' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Add Entity' })).toBeInTheDocument();
  });

  it.each(['contributor', 'viewer'])(
    '%s sees the cards with Records only: no Add Entity, Edit or Delete',
    async (role) => {
      renderApp('/entities', signedInAs(role, [role]));
      const card = await screen.findByLabelText('Car');
      expect(within(card).getByRole('link', { name: 'Records' })).toBeInTheDocument();
      expect(within(card).queryByRole('link', { name: 'Edit' })).toBeNull();
      expect(within(card).queryByRole('button', { name: 'Delete' })).toBeNull();
      expect(screen.queryByRole('link', { name: 'Add Entity' })).toBeNull();
    },
  );

  it('a user with no role is told to ask for one, and no entities are asked for', async () => {
    renderApp('/entities', signedInAs('newcomer', []));
    expect(await screen.findByText(t('common.needsRole'))).toBeInTheDocument();
    // The permissions have come: the list would have been asked for by now.
    expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
    expect(network.calls('GET /api/entities')).toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'Add Entity' })).toBeNull();
  });

  it('a viewer with no entity sees the empty state without a way to add one', async () => {
    network.use(http.get('/api/entities', () => HttpResponse.json([])));
    renderApp('/entities', signedInAs('viewer', ['viewer']));
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('No entities yet');
    expect(within(empty).queryByRole('link')).toBeNull();
  });

  it('admin deletes an entity after confirmation, and not before', async () => {
    network.use(http.delete('/api/entities/id-Car', () => new HttpResponse(null, { status: 204 })));
    renderApp('/entities', asAdmin);
    const card = await screen.findByLabelText('Car');
    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete entity' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(network.calls('DELETE /api/entities/id-Car')).toHaveLength(0);

    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete entity' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(network.calls('DELETE /api/entities/id-Car')).toHaveLength(1));
  });

  it("Undo on the delete's toast restores the definition as it was deleted, with its records", async () => {
    network.use(
      http.delete('/api/entities/id-Car', () => new HttpResponse(null, { status: 204 })),
      http.get('/api/entities/id-Car/versions', () =>
        HttpResponse.json([
          {
            _id: 'v-deleted',
            action: 'delete',
            updatedBy: 'admin',
            versionDate: '2026-11-27T10:00:00.000Z',
            document: {},
            changes: [],
          },
        ]),
      ),
      http.post('/api/entities/id-Car/versions/v-deleted/restore', () => HttpResponse.json(car)),
    );
    renderApp('/entities', asAdmin);
    const card = await screen.findByLabelText('Car');
    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete entity' });
    expect(dialog).toHaveTextContent(
      'Delete Car and all its records? You can undo it for a few seconds.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted Car and its records')).toBeInTheDocument();
    const listed = network.calls('GET /api/entities').length;
    await userEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(network.calls('POST /api/entities/id-Car/versions/v-deleted/restore')).toHaveLength(1),
    );
    await waitFor(() => expect(network.calls('GET /api/entities').length).toBeGreaterThan(listed));
  });

  it('shows a progress bar while the list loads, and Retry after a failure asks again', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let failures = 1;
    network.use(
      http.get('/api/entities', async () => {
        await answered;
        if (failures-- > 0) return apiError(500, 'INTERNAL');
        return HttpResponse.json(defined);
      }),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/entities', asAdmin);
    expect(
      await screen.findByRole('progressbar', { name: 'Loading entities' }),
    ).toBeInTheDocument();
    answer();
    expect(
      await screen.findByText(t('common.loadFailed', { what: 'entities' })),
    ).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.entities.fetchContext, expect.anything());
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Car')).toBeInTheDocument();
    consoleError.mockRestore();
  });
});

describe('/entities/add', () => {
  it('a contributor is told adding entities is closed to them: no form, nothing sent', async () => {
    renderApp('/entities/add', signedInAs('contributor', ['contributor']));
    expect(
      await screen.findByText(t('common.roleDoesNotAllow', { what: 'adding entities' })),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add entity' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Entity' })).toBeNull();
  });

  it('a user with no role sees the one needs-a-role line and no form', async () => {
    renderApp('/entities/add', signedInAs('newcomer', []));
    expect(await screen.findAllByText(t('common.needsRole'))).toHaveLength(1);
    expect(screen.queryByText(/Your role does not allow/)).toBeNull();
    expect(screen.queryByRole('form', { name: 'Add entity' })).toBeNull();
  });

  it('strips the name and field names as they are typed, and sends the definition', async () => {
    network.use(
      http.post('/api/entities', async ({ request }) =>
        HttpResponse.json({ _id: 'new', _version: 1, ...(await body(request)) }, { status: 201 }),
      ),
    );
    renderApp('/entities/add', asAdmin);
    const name = await screen.findByLabelText(/^Name/);
    await userEvent.type(name, 'Fleet Car-1');
    expect(name).toHaveValue('FleetCar1');
    expect(screen.getByLabelText(/^Category/)).toHaveValue('Generic');
    const field = screen.getByRole('group', { name: 'Field 1' });
    await userEvent.type(within(field).getByLabelText(/Field name/), 'plate no.');
    expect(within(field).getByLabelText(/Field name/)).toHaveValue('plateno');
    await userEvent.type(within(field).getByLabelText(/Label/), 'Plate number');
    await userEvent.click(screen.getByRole('button', { name: 'Add field' }));
    await userEvent.type(
      within(screen.getByRole('group', { name: 'Field 2' })).getByLabelText(/Field name/),
      'colour',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add Entity' }));
    expect(await screen.findByText(t('entities.added'))).toBeInTheDocument();
    expect(await network.calls('POST /api/entities')[0]!.json()).toEqual({
      name: 'FleetCar1',
      description: '',
      category: 'Generic',
      // A field with no label is shown by its name (the schema's output is sent).
      fields: [
        { name: 'plateno', label: 'Plate number' },
        { name: 'colour', label: 'colour' },
      ],
    });
    // Ready for the next one.
    expect(screen.getByLabelText(/^Name/)).toHaveValue('');
  });

  it("sends each field's type and settings: a choice's options, a required whole number", async () => {
    network.use(
      http.post('/api/entities', async ({ request }) =>
        HttpResponse.json({ _id: 'new', _version: 1, ...(await body(request)) }, { status: 201 }),
      ),
    );
    renderApp('/entities/add', asAdmin);
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Sample');
    const first = screen.getByRole('group', { name: 'Field 1' });
    await userEvent.type(within(first).getByLabelText(/Field name/), 'kind');
    await userEvent.click(within(first).getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Choice' }));
    await userEvent.type(within(first).getByLabelText(/Options/), 'blood, urine');
    await userEvent.click(screen.getByRole('button', { name: 'Add field' }));
    const second = screen.getByRole('group', { name: 'Field 2' });
    await userEvent.type(within(second).getByLabelText(/Field name/), 'count');
    await userEvent.click(within(second).getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Whole number' }));
    await userEvent.click(within(second).getByRole('checkbox', { name: 'Required' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Entity' }));
    expect(await screen.findByText(t('entities.added'))).toBeInTheDocument();
    expect((await network.calls('POST /api/entities')[0]!.json()).fields).toEqual([
      { name: 'kind', label: 'kind', type: 'select', options: ['blood', 'urine'] },
      { name: 'count', label: 'count', type: 'integer', required: true },
    ]);
  });

  it('drops a setting the new type cannot have: a yes / no field is not unique', async () => {
    network.use(
      http.post('/api/entities', async ({ request }) =>
        HttpResponse.json({ _id: 'new', _version: 1, ...(await body(request)) }, { status: 201 }),
      ),
    );
    renderApp('/entities/add', asAdmin);
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Flags');
    const first = screen.getByRole('group', { name: 'Field 1' });
    await userEvent.type(within(first).getByLabelText(/Field name/), 'done');
    await userEvent.click(within(first).getByRole('checkbox', { name: 'Unique' }));
    await userEvent.click(within(first).getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Yes / no' }));
    expect(within(first).getByRole('checkbox', { name: 'Unique' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Add Entity' }));
    expect(await screen.findByText(t('entities.added'))).toBeInTheDocument();
    expect((await network.calls('POST /api/entities')[0]!.json()).fields).toEqual([
      { name: 'done', label: 'done', type: 'boolean' },
    ]);
  });

  it('requires the name and the field names', async () => {
    renderApp('/entities/add', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Add Entity' }));
    expect(await screen.findAllByText('is required')).toHaveLength(2);
    expect(network.calls('POST /api/entities')).toHaveLength(0);
  });

  it("shows 'Error adding entity' and a taken name under the name", async () => {
    network.use(
      http.post('/api/entities', () =>
        apiError(409, 'NAME_TAKEN', 'An entity with this name exists'),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/entities/add', asAdmin);
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Car');
    await userEvent.type(screen.getByLabelText(/Field name/), 'make');
    await userEvent.click(screen.getByRole('button', { name: 'Add Entity' }));
    expect(await screen.findByText(t('entities.addFailed'))).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveAccessibleDescription(
      'An entity with this name exists',
    );
    expect(consoleError).toHaveBeenCalledWith(t('entities.addFailed'), expect.anything());
    consoleError.mockRestore();
  });

  it("shows the fields of the server's 400 under the field names they name", async () => {
    network.use(
      http.post('/api/entities', () =>
        apiError(400, 'VALIDATION_FAILED', 'invalid', [
          { field: 'body.fields.1.name', message: 'must be at most 64 characters' },
        ]),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/entities/add', asAdmin);
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Car');
    await userEvent.type(screen.getByLabelText(/Field name/), 'make');
    await userEvent.click(screen.getByRole('button', { name: 'Add field' }));
    const second = within(screen.getByRole('group', { name: 'Field 2' }));
    await userEvent.type(second.getByLabelText(/Field name/), 'model');
    await userEvent.click(screen.getByRole('button', { name: 'Add Entity' }));
    expect(await screen.findByText(t('entities.addFailed'))).toBeInTheDocument();
    expect(second.getByLabelText(/Field name/)).toHaveAccessibleDescription(
      'must be at most 64 characters',
    );
    expect(
      within(screen.getByRole('group', { name: 'Field 1' })).getByLabelText(/Field name/),
    ).not.toHaveAccessibleDescription();
    consoleError.mockRestore();
  });

  it('says under the second field name that names must be unique', async () => {
    renderApp('/entities/add', asAdmin);
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Car');
    await userEvent.type(screen.getByLabelText(/Field name/), 'make');
    await userEvent.click(screen.getByRole('button', { name: 'Add field' }));
    const second = within(screen.getByRole('group', { name: 'Field 2' }));
    await userEvent.type(second.getByLabelText(/Field name/), 'make');
    await userEvent.click(screen.getByRole('button', { name: 'Add Entity' }));
    await waitFor(() =>
      expect(second.getByLabelText(/Field name/)).toHaveAccessibleDescription('must be unique'),
    );
    expect(network.calls('POST /api/entities')).toHaveLength(0);
  });
});

describe('/entities/edit/:entityId', () => {
  it.each([
    [
      'contributor',
      ['contributor'],
      () => t('common.roleDoesNotAllow', { what: 'editing entities' }),
    ],
    ['a user with no role', [], () => t('common.needsRole')],
  ])(
    '%s is told why there is no form, and the entity is not asked for',
    async (_who, userRoles, told) => {
      renderApp('/entities/edit/id-Car', signedInAs('someone', userRoles));
      expect(await screen.findAllByText(told())).toHaveLength(1);
      if (userRoles.length === 0) expect(screen.queryByText(/Your role does not allow/)).toBeNull();
      expect(screen.queryByRole('form', { name: 'Edit entity' })).toBeNull();
      expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
      expect(network.calls('GET /api/entities/id-Car')).toHaveLength(0);
    },
  );

  it('offers no Version history to a role the routes table does not let read versions', async () => {
    network.use(
      http.get('/api/auth/permissions', () =>
        HttpResponse.json({
          roles: ['editor'],
          allowed: [
            { routeVerb: 'GET', routePath: '/api/entities' },
            { routeVerb: 'GET', routePath: '/api/entities/:idOrName' },
            { routeVerb: 'PUT', routePath: '/api/entities/:id' },
          ],
        }),
      ),
    );
    renderApp('/entities/edit/id-Car', signedInAs('edith', ['editor']));
    // The form appears only once the permissions are known, the button's too.
    expect(await screen.findByLabelText(/^Name/)).toHaveValue('Car');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Version history' })).toBeNull();
  });

  it('says there is no entity with this id, with a way back, and no form (404)', async () => {
    network.use(http.get('/api/entities/id-Gone', () => apiError(404, 'NOT_FOUND', 'Not found')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/entities/edit/id-Gone', asAdmin);
    const notFound = await screen.findByRole('status');
    expect(notFound).toHaveTextContent('There is no entity with this id.');
    expect(within(notFound).getByRole('link', { name: 'See the entities' })).toHaveAttribute(
      'href',
      '/entities',
    );
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    expect(screen.queryByRole('form', { name: 'Edit entity' })).toBeNull();
    expect(store.getState().ui.toasts.map((t) => t.message)).toEqual([t('toast.notFound')]);
    expect(consoleError).toHaveBeenCalledWith(messages.entities.fetchContext, expect.anything());
    consoleError.mockRestore();
  });

  it('shows a progress bar, then says the entity could not be loaded, and Retry loads it', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let failures = 1;
    network.use(
      http.get('/api/entities/id-Car', async () => {
        await answered;
        if (failures-- > 0) return apiError(500, 'INTERNAL');
        return HttpResponse.json(car);
      }),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/entities/edit/id-Car', asAdmin);
    expect(await screen.findByRole('progressbar', { name: 'Loading entity' })).toBeInTheDocument();
    answer();
    expect(await screen.findByText(t('common.loadFailed', { what: 'entity' }))).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit entity' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('form', { name: 'Edit entity' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Car');
    consoleError.mockRestore();
  });

  it('keeps the name fixed, saves the rest and shows the success message', async () => {
    network.use(
      http.put('/api/entities/id-Car', async ({ request }) => {
        const sent = await body(request);
        return HttpResponse.json({
          _id: 'id-Car',
          _version: 1,
          ...sent,
          category: `${String(sent.category)} (stored)`,
        });
      }),
    );
    renderApp('/entities/edit/id-Car', asAdmin);
    const name = await screen.findByLabelText(/^Name/);
    expect(name).toHaveValue('Car');
    expect(name).toBeDisabled();
    await userEvent.clear(screen.getByLabelText(/^Category/));
    await userEvent.type(screen.getByLabelText(/^Category/), 'Fleet');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(t('entities.saved'))).toBeInTheDocument();
    // The form shows what the server stored.
    expect(screen.getByLabelText(/^Category/)).toHaveValue('Fleet (stored)');
    expect(await network.calls('PUT /api/entities/id-Car')[0]!.json()).toMatchObject({
      entityId: 'id-Car',
      name: 'Car',
      category: 'Fleet',
    });
  });

  it('asks before saving a definition without one of its fields, whose values would go', async () => {
    const twoFields = {
      ...entity('Car', 'Vehicles'),
      fields: [
        { name: 'title', label: 'Title' },
        { name: 'colour', label: 'Colour' },
      ],
    };
    network.use(
      http.get('/api/entities/id-Car', () => HttpResponse.json(twoFields)),
      http.put('/api/entities/id-Car', async ({ request }) =>
        HttpResponse.json({ _id: 'id-Car', _version: 2, ...(await body(request)) }),
      ),
    );
    renderApp('/entities/edit/id-Car', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove field 2' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove fields' });
    expect(dialog).toHaveTextContent(
      'Saving deletes the values of colour from every record of Car.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(network.calls('PUT /api/entities/id-Car')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save and remove' }),
    );
    expect(await screen.findByText(t('entities.saved'))).toBeInTheDocument();
    expect((await network.calls('PUT /api/entities/id-Car')[0]!.json()).fields).toEqual([
      { name: 'title', label: 'Title' },
    ]);
  });

  it("saves a typed definition's fields with their types and settings, and its display field", async () => {
    const typed = {
      ...entity('Car', 'Vehicles'),
      fields: [
        { name: 'plate', label: 'Plate', required: true, unique: true },
        { name: 'seats', label: 'Seats', type: 'integer', default: 4 },
        { name: 'fuel', label: 'Fuel', type: 'select', options: ['petrol', 'electric'] },
      ],
      displayField: 'seats',
    };
    network.use(
      http.get('/api/entities/id-Car', () => HttpResponse.json(typed)),
      http.put('/api/entities/id-Car', async ({ request }) =>
        HttpResponse.json({ ...typed, _version: 2, ...(await body(request)) }),
      ),
    );
    renderApp('/entities/edit/id-Car', asAdmin);
    await userEvent.type(await screen.findByLabelText(/^Description/), ' (renamed)');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(t('entities.saved'))).toBeInTheDocument();
    expect(await network.calls('PUT /api/entities/id-Car')[0]!.json()).toMatchObject({
      fields: typed.fields,
      displayField: 'seats',
    });
  });

  it("tries a change of a field's type on the records first: lists what cannot follow, asks before converting", async () => {
    const words = { ...entity('Car', 'Vehicles'), fields: [{ name: 'seats', label: 'Seats' }] };
    let report = {
      records: 2,
      converted: 2,
      failed: 1,
      failures: [
        { _id: 'r2aaaaaaa-x', field: 'seats', value: 'four', message: 'must be a whole number' },
      ],
    };
    network.use(
      http.get('/api/entities/id-Car', () => HttpResponse.json(words)),
      http.put('/api/entities/id-Car', async ({ request }) =>
        new URL(request.url).searchParams.get('dryRun') === 'true'
          ? HttpResponse.json(report)
          : HttpResponse.json({ ...words, _version: 2, ...(await body(request)) }),
      ),
    );
    renderApp('/entities/edit/id-Car', asAdmin);
    const field = await screen.findByRole('group', { name: 'Field 1' });
    await userEvent.click(within(field).getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Whole number' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        /1 value cannot follow this change \(record r2aaaaaa: seats «four» must be a whole number\)/,
      ),
    ).toBeInTheDocument();
    const sent = () =>
      network.calls('PUT /api/entities/id-Car').filter((call) => !call.url.includes('dryRun'));
    expect(sent()).toHaveLength(0);

    report = { ...report, failed: 0, failures: [] };
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Convert values' });
    expect(dialog).toHaveTextContent('Saving converts the values of 2 records of Car');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and convert' }));
    expect(await screen.findByText(t('entities.saved'))).toBeInTheDocument();
    expect((await sent()[0]!.json()).fields).toEqual([
      { name: 'seats', label: 'Seats', type: 'integer' },
    ]);
  });

  it('requires field names on the edit form too', async () => {
    renderApp('/entities/edit/id-Car', asAdmin);
    await userEvent.clear(await screen.findByLabelText(/Field name/));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('is required')).toBeInTheDocument();
  });

  it('opens the version history, each part by its label and the fields as a reader reads them', async () => {
    const kind = { name: 'kind', label: '', type: 'select', options: ['van', 'cab'] };
    const before = { ...entity('Car', 'Vehicles'), displayField: 'title' };
    const after = { ...before, fields: [...before.fields, { ...kind, required: true }] };
    network.use(
      http.get('/api/entities/id-Car/versions', () =>
        HttpResponse.json([
          {
            _id: 'v2',
            action: 'update',
            updatedBy: 'admin',
            versionDate: '2026-01-02T00:00:00Z',
            document: after,
            changes: [{ field: 'fields', from: before.fields, to: after.fields }],
          },
          {
            _id: 'v1',
            action: 'create',
            updatedBy: 'admin',
            versionDate: '2026-01-01T00:00:00Z',
            document: before,
            changes: [],
          },
        ]),
      ),
    );
    renderApp('/entities/edit/id-Car', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Version history' }));
    const dialog = await screen.findByRole('dialog', { name: 'Versions of Car' });
    const [change] = await within(dialog).findAllByRole('list', { name: 'Changes' });
    // A field without a label goes by its name.
    expect(change).toHaveTextContent(
      'Fields: Title (Text) → Title (Text); kind (Choice: van / cab, required)',
    );
    const [snapshot] = within(dialog).getAllByRole('table', { name: 'Snapshot' });
    expect(
      within(snapshot!)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'NameCar',
      'DescriptionAbout Car',
      'CategoryVehicles',
      'FieldsTitle (Text); kind (Choice: van / cab, required)',
      'Names its recordstitle',
    ]);
  });

  it("shows 'Error editing entity' when the save fails", async () => {
    network.use(http.put('/api/entities/id-Car', () => apiError(500, 'INTERNAL', 'x')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/entities/edit/id-Car', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/^Error editing entity: /)).toBeInTheDocument();
    consoleError.mockRestore();
  });
});
