import { GridRowModes } from '@mui/x-data-grid';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import type { EntityRecord } from '@common/schemas/entities';
import { cancelRow, saveRow, startEditing } from '@/lib/rowModes';
import { apiError, permissionsFor, recordPage, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs, type TestRouter } from '../../helpers/render';

describe('the record-row edit rules', () => {
  it('makes the started row the editing one and sends the previous one back to be saved', () => {
    const one = startEditing({}, 'a', 'make');
    expect(one).toEqual({ a: { mode: GridRowModes.Edit, fieldToFocus: 'make' } });
    const two = startEditing(one, 'b');
    expect(two).toEqual({ a: { mode: GridRowModes.View }, b: { mode: GridRowModes.Edit } });
  });

  it('saves by leaving edit mode, and cancels by dropping the edits', () => {
    expect(saveRow(startEditing({}, 'a'), 'a')).toEqual({ a: { mode: GridRowModes.View } });
    expect(cancelRow(startEditing({}, 'a'), 'a')).toEqual({
      a: { mode: GridRowModes.View, ignoreModifications: true },
    });
  });
});

describe('/entities/:entityName', () => {
  const car = {
    _id: 'id-Car',
    _version: 1,
    name: 'Car',
    description: '',
    category: 'Vehicles',
    fields: [
      { name: 'make', label: 'Make' },
      { name: 'colour', label: 'Colour' },
    ],
  };
  const body = async (request: Request) => (await request.json()) as Record<string, unknown>;
  /** The records the stand-in server holds: writes change them, pages read them. */
  let stored: EntityRecord[];
  beforeEach(() => {
    stored = [
      { _id: 'r1', entity_name: 'Car', fields: { make: 'Ford', colour: 'red' }, _version: 1 },
      { _id: 'r2', entity_name: 'Car', fields: { make: 'Fiat' }, _version: 1 },
    ];
  });
  const network = setupNetwork(
    http.get('/api/entities/Car', () => HttpResponse.json(car)),
    http.get('/api/entity-records/Car', () => recordPage(stored)),
    http.post('/api/entity-records/Car', async ({ request }) => {
      const { _id, fields } = (await body(request)) as EntityRecord;
      stored = [...stored, { _id, entity_name: 'Car', fields, _version: 1 }];
      return HttpResponse.json({ _id }, { status: 201 });
    }),
    http.put('/api/entity-records/Car/:id', async ({ request, params }) => {
      const { fields } = (await body(request)) as EntityRecord;
      const record = { _id: String(params.id), entity_name: 'Car', fields, _version: 2 };
      stored = stored.map((one) => (one._id === record._id ? record : one));
      return HttpResponse.json(record);
    }),
  );

  const openGrid = async () => {
    renderApp('/entities/Car', signedInAs('contributor', ['contributor']));
    const grid = await screen.findByRole('grid', { name: 'Car records' });
    await within(grid).findByText('Ford');
    return grid;
  };

  it('shows a column per field label', async () => {
    const grid = await openGrid();
    expect(within(grid).getByRole('columnheader', { name: 'Make' })).toBeInTheDocument();
    expect(within(grid).getByRole('columnheader', { name: 'Colour' })).toBeInTheDocument();
  });

  it('shows an empty yes/no as empty, not as a no; a long text opens from its cell, not as a Tab stop', async () => {
    const notes = {
      ...car,
      _id: 'id-Notes',
      name: 'Notes',
      fields: [
        { name: 'item', label: 'Item' },
        { name: 'sealed', label: 'Sealed', type: 'boolean' },
        { name: 'notes', label: 'Notes', type: 'longText' },
      ],
    };
    const records = [
      { _id: 'n1', entity_name: 'Notes', fields: { item: 'unknown' }, _version: 1 },
      { _id: 'n2', entity_name: 'Notes', fields: { item: 'open', sealed: false }, _version: 1 },
      {
        _id: 'n3',
        entity_name: 'Notes',
        fields: { item: 'closed', sealed: true, notes: 'a long story' },
        _version: 1,
      },
    ];
    network.use(
      http.get('/api/entities/Notes', () => HttpResponse.json(notes)),
      http.get('/api/entity-records/Notes', () => recordPage(records)),
    );
    renderApp('/entities/Notes', signedInAs('viewer', ['viewer']));
    const grid = await screen.findByRole('grid', { name: 'Notes records' });
    await within(grid).findByText('unknown');
    const rowOf = (item: string) =>
      within(grid)
        .getAllByRole('row')
        .find((row) => within(row).queryByText(item))!;
    // The grid names its yes/no icons 'yes' and 'no'.
    expect(within(rowOf('unknown')).queryByRole('img', { name: /^(yes|no)$/ })).toBeNull();
    expect(within(rowOf('open')).getByRole('img', { name: 'no' })).toBeInTheDocument();
    expect(within(rowOf('closed')).getByRole('img', { name: 'yes' })).toBeInTheDocument();
    const expand = within(grid).getByRole('button', { name: /^a long story, / });
    expect(expand).toHaveAttribute('tabindex', '-1');
  });

  it('asks the server for pages sorted by a typed field, and saves JSON values of its type', async () => {
    const stock = {
      ...car,
      _id: 'id-Stock',
      name: 'Stock',
      fields: [
        { name: 'item', label: 'Item' },
        { name: 'count', label: 'Count', type: 'integer' },
        { name: 'sealed', label: 'Sealed', type: 'boolean' },
      ],
    };
    const records = [
      { _id: 's1', entity_name: 'Stock', fields: { item: 'ten', count: 10 }, _version: 1 },
      {
        _id: 's2',
        entity_name: 'Stock',
        fields: { item: 'nine', count: 9, sealed: true },
        _version: 1,
      },
    ];
    network.use(
      http.get('/api/entities/Stock', () => HttpResponse.json(stock)),
      // The stand-in server sorts as asked: by the count, as numbers.
      http.get('/api/entity-records/Stock', ({ request }) => {
        const sort = new URL(request.url).searchParams.get('sort');
        const sorted = [...records];
        if (sort === 'count:asc') sorted.sort((a, b) => a.fields.count - b.fields.count);
        return recordPage(sorted);
      }),
      http.put('/api/entity-records/Stock/:id', async ({ request, params }) =>
        HttpResponse.json({
          _id: params.id,
          entity_name: 'Stock',
          _version: 2,
          ...(await body(request)),
        }),
      ),
    );
    renderApp('/entities/Stock', signedInAs('contributor', ['contributor']));
    const grid = await screen.findByRole('grid', { name: 'Stock records' });
    await within(grid).findByText('ten');
    const firstRequest = new URL(network.calls('GET /api/entity-records/Stock')[0]!.url);
    expect(Object.fromEntries(firstRequest.searchParams)).toEqual({ page: '1', perPage: '50' });
    await userEvent.click(within(grid).getByRole('columnheader', { name: 'Count' }));
    const items = () =>
      within(grid)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).queryByText(/^(ten|nine)$/)?.textContent);
    await waitFor(() => expect(items()).toEqual(['nine', 'ten']));
    const sorted = new URL(network.calls('GET /api/entity-records/Stock').at(-1)!.url);
    expect(sorted.searchParams.get('sort')).toBe('count:asc');
    await userEvent.click(within(grid).getByRole('button', { name: 'Edit record 2' }));
    const count = await within(grid).findByDisplayValue('10');
    await userEvent.clear(count);
    await userEvent.type(count, '12');
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 2' }));
    await waitFor(() => expect(network.calls('PUT /api/entity-records/Stock/s1')).toHaveLength(1));
    expect((await network.calls('PUT /api/entity-records/Stock/s1')[0]!.json()).fields).toEqual({
      item: 'ten',
      count: 12,
      sealed: null,
    });
  });

  describe('typed fields', () => {
    const LYON = '5b1e0c62-3c59-4f6e-9a43-5d2a0e7c1a01';
    const NICE = '5b1e0c62-3c59-4f6e-9a43-5d2a0e7c1a02';
    const sample = {
      ...car,
      _id: 'id-Sample',
      name: 'Sample',
      fields: [
        { name: 'code', label: 'Code', required: true },
        { name: 'qty', label: 'Quantity', type: 'number' },
        { name: 'site', label: 'Site', type: 'relation', target: 'Site' },
      ],
    };
    const site = {
      ...car,
      _id: 'id-Site',
      name: 'Site',
      fields: [{ name: 'name', label: 'Name' }],
    };
    const sites = [
      { _id: LYON, entity_name: 'Site', fields: { name: 'Lyon' }, _version: 1 },
      { _id: NICE, entity_name: 'Site', fields: { name: 'Nice' }, _version: 1 },
    ];
    beforeEach(() =>
      network.use(
        http.get('/api/entities/Sample', () => HttpResponse.json(sample)),
        http.get('/api/entities', () => HttpResponse.json([car, sample, site])),
        http.get('/api/entity-records/Sample', () =>
          recordPage([
            {
              _id: 'a1',
              entity_name: 'Sample',
              fields: { code: 'A-1', qty: 2, site: LYON },
              _display: { site: 'Lyon' },
              _version: 1,
            },
          ]),
        ),
        // The picker's search: the stand-in server matches the words in the name.
        http.get('/api/entity-records/Site', ({ request }) => {
          const q = new URL(request.url).searchParams.get('q')?.toLowerCase() ?? '';
          return recordPage(sites.filter((one) => one.fields.name.toLowerCase().includes(q)));
        }),
        http.post('/api/entity-records/Sample', async ({ request }) =>
          HttpResponse.json({ _id: (await body(request))._id }, { status: 201 }),
        ),
      ),
    );
    const openSamples = async () => {
      renderApp('/entities/Sample', signedInAs('contributor', ['contributor']));
      const grid = await screen.findByRole('grid', { name: 'Sample records' });
      await within(grid).findByText('A-1');
      return grid;
    };

    it("names a date's input after its column and ties its refusal to it", async () => {
      const visit = {
        ...car,
        _id: 'id-Visit',
        name: 'Visit',
        fields: [
          { name: 'who', label: 'Who' },
          { name: 'day', label: 'Day', type: 'date', required: true },
        ],
      };
      network.use(
        http.get('/api/entities/Visit', () => HttpResponse.json(visit)),
        http.get('/api/entity-records/Visit', () => recordPage([])),
      );
      renderApp('/entities/Visit', signedInAs('contributor', ['contributor']));
      const grid = await screen.findByRole('grid', { name: 'Visit records' });
      await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
      await userEvent.type(await within(grid).findByRole('textbox', { name: 'Who' }), 'Ada');
      await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));
      const day = await within(grid).findByLabelText('Day');
      await waitFor(() => expect(day).toHaveAccessibleDescription('is required'));
      expect(day).toHaveAttribute('aria-invalid', 'true');
      expect(network.calls('POST /api/entity-records/Visit')).toHaveLength(0);
    });

    it('saves a required yes/no left unticked as no', async () => {
      const check = {
        ...car,
        _id: 'id-Check',
        name: 'Check',
        fields: [
          { name: 'item', label: 'Item' },
          { name: 'done', label: 'Done', type: 'boolean', required: true },
        ],
      };
      network.use(
        http.get('/api/entities/Check', () => HttpResponse.json(check)),
        http.get('/api/entity-records/Check', () => recordPage([])),
        http.post('/api/entity-records/Check', async ({ request }) =>
          HttpResponse.json({ _id: (await body(request))._id }, { status: 201 }),
        ),
      );
      renderApp('/entities/Check', signedInAs('contributor', ['contributor']));
      const grid = await screen.findByRole('grid', { name: 'Check records' });
      await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
      await userEvent.type(await within(grid).findByRole('textbox', { name: 'Item' }), 'gloves');
      const done = within(grid).getByRole('checkbox', { name: 'Done' });
      await userEvent.click(done);
      await userEvent.click(done);
      await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));
      await waitFor(() => expect(network.calls('POST /api/entity-records/Check')).toHaveLength(1));
      expect((await network.calls('POST /api/entity-records/Check')[0]!.json()).fields).toEqual({
        item: 'gloves',
        done: false,
      });
    });

    it("shows a relation by the related record's display value", async () => {
      const grid = await openSamples();
      expect(within(grid).getByText('Lyon')).toBeInTheDocument();
      expect(within(grid).queryByText(LYON)).toBeNull();
    });

    it('keeps a new row whose required field is empty, says why under the cell, and sends nothing', async () => {
      const grid = await openSamples();
      await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
      await userEvent.click(await within(grid).findByRole('button', { name: 'Save record 2' }));
      const code = await within(grid).findByRole('textbox', { name: 'Code' });
      await waitFor(() => expect(code).toHaveAccessibleDescription('is required'));
      expect(code).toHaveAttribute('aria-invalid', 'true');
      // Shown under the cell (jsdom has no layout: the browser test sees it).
      expect(screen.getByText('is required')).toBeInTheDocument();
      expect(network.calls('POST /api/entity-records/Sample')).toHaveLength(0);
      // Typing hides the message; the row then saves.
      await userEvent.type(code, 'B-2');
      expect(code).not.toHaveAccessibleDescription();
      await userEvent.click(within(grid).getByRole('button', { name: 'Save record 2' }));
      await waitFor(() => expect(network.calls('POST /api/entity-records/Sample')).toHaveLength(1));
      expect((await network.calls('POST /api/entity-records/Sample')[0]!.json()).fields).toEqual({
        code: 'B-2',
        qty: null,
        site: null,
      });
      expect(await screen.findByText(t('records.added'))).toBeInTheDocument();
    });

    it("shows the server's refusal of a value under its cell, and says what it is", async () => {
      network.use(
        http.post('/api/entity-records/Sample', () =>
          HttpResponse.json(
            {
              statusCode: 409,
              error: 'Conflict',
              code: 'NOT_UNIQUE',
              message: messages.server.notUnique('Code'),
              fields: [{ field: 'body.fields.code', message: 'is taken by another record' }],
            },
            { status: 409 },
          ),
        ),
      );
      const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
      const grid = await openSamples();
      await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
      await userEvent.type(await within(grid).findByRole('textbox', { name: 'Code' }), 'A-1');
      await userEvent.click(within(grid).getByRole('button', { name: 'Save record 2' }));
      const code = await within(grid).findByRole('textbox', { name: 'Code' });
      await waitFor(() => expect(code).toHaveAccessibleDescription('is taken by another record'));
      // The toast says what happened, not the catch-all "not allowed".
      expect(await screen.findByText(messages.server.notUnique('Code'))).toBeInTheDocument();
      expect(screen.queryByText(t('toast.notAllowed'))).toBeNull();
      consoleError.mockRestore();
    });

    it("picks a relation's record by searching the related entity, and saves its id", async () => {
      const grid = await openSamples();
      await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
      await userEvent.type(await within(grid).findByRole('textbox', { name: 'Code' }), 'B-2');
      const picker = within(grid).getByRole('combobox', { name: 'Site' });
      await userEvent.type(picker, 'ni');
      await waitFor(() => {
        const searches = network.calls('GET /api/entity-records/Site');
        expect(new URL(searches.at(-1)!.url).searchParams.get('q')).toBe('ni');
      });
      await waitFor(() =>
        expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Nice']),
      );
      await userEvent.click(screen.getByRole('option', { name: 'Nice' }));
      await userEvent.click(within(grid).getByRole('button', { name: 'Save record 2' }));
      await waitFor(() => expect(network.calls('POST /api/entity-records/Sample')).toHaveLength(1));
      expect((await network.calls('POST /api/entity-records/Sample')[0]!.json()).fields).toEqual({
        code: 'B-2',
        qty: null,
        site: NICE,
      });
    });

    it('asks for the filter a link names, as a range of the column, and shows it in the grid', async () => {
      const { router } = renderApp(
        '/entities/Sample?filter[qty][gte]=2&filter[qty][lte]=5&sort=qty:desc',
        signedInAs('viewer', ['viewer']),
      );
      const grid = await screen.findByRole('grid', { name: 'Sample records' });
      await within(grid).findByText('A-1');
      const asked = new URL(network.calls('GET /api/entity-records/Sample').at(-1)!.url);
      expect(Object.fromEntries(asked.searchParams)).toEqual({
        page: '1',
        perPage: '50',
        sort: 'qty:desc',
        'filter[qty][gte]': '2',
        'filter[qty][lte]': '5',
      });
      // The grid holds it as its filter: the column says so, and the URL keeps it.
      const quantity = within(grid).getByRole('columnheader', { name: /Quantity/ });
      expect(within(quantity).getByLabelText('1 active filter')).toBeInTheDocument();
      await waitFor(() =>
        expect(decodeURIComponent(router.state.location.search)).toBe(
          '?sort=qty:desc&filter[qty][gte]=2&filter[qty][lte]=5',
        ),
      );
    });

    it('sends the quick search once typing pauses, from page 1, and keeps it in the URL', async () => {
      const { router } = renderApp(
        '/entities/Sample?page=2',
        signedInAs('contributor', ['contributor']),
      );
      await screen.findByRole('grid', { name: 'Sample records' });
      await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'a-1 lyon');
      await waitFor(() => expect(router.state.location.search).toBe('?q=a-1+lyon'));
      const asked = new URL(network.calls('GET /api/entity-records/Sample').at(-1)!.url);
      expect(Object.fromEntries(asked.searchParams)).toEqual({
        page: '1',
        perPage: '50',
        q: 'a-1 lyon',
      });
      // Each word typed did not send a request of its own.
      expect(
        network
          .calls('GET /api/entity-records/Sample')
          .filter((call) => new URL(call.url).searchParams.has('q')),
      ).toHaveLength(1);
    });
  });

  it('appends a blank row in edit mode, and saves it as a new record', async () => {
    const grid = await openGrid();
    await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
    expect(await within(grid).findByRole('button', { name: 'Save record 3' })).toBeInTheDocument();
    const inputs = within(grid).getAllByRole('textbox');
    expect(inputs.map((i) => (i as HTMLInputElement).value)).toEqual(['', '']);
    await userEvent.type(inputs[0]!, 'Volvo');
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 3' }));
    await waitFor(() => expect(network.calls('POST /api/entity-records/Car')).toHaveLength(1));
    const body = await network.calls('POST /api/entity-records/Car')[0]!.json();
    expect(body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      entity_name: 'Car',
      fields: { make: 'Volvo', colour: '' },
    });
  });

  it('starting to edit another row saves the current one', async () => {
    const grid = await openGrid();
    await userEvent.click(within(grid).getByRole('button', { name: 'Edit record 1' }));
    const make = await within(grid).findByDisplayValue('Ford');
    await userEvent.clear(make);
    await userEvent.type(make, 'Ford Motor');
    await userEvent.click(within(grid).getByRole('button', { name: 'Edit record 2' }));
    await waitFor(() => expect(network.calls('PUT /api/entity-records/Car/r1')).toHaveLength(1));
    expect(await network.calls('PUT /api/entity-records/Car/r1')[0]!.json()).toEqual({
      fields: { make: 'Ford Motor', colour: 'red' },
      // The version the edit started from: a newer one on the server is a conflict.
      _version: 1,
    });
    expect(await within(grid).findByDisplayValue('Fiat')).toBeInTheDocument();
    expect(within(grid).getByRole('button', { name: 'Edit record 1' })).toBeInTheDocument();
  });

  it('a double click on another row saves the current one too', async () => {
    const grid = await openGrid();
    await userEvent.click(within(grid).getByRole('button', { name: 'Edit record 1' }));
    await userEvent.type(await within(grid).findByDisplayValue('Ford'), ' Motor');
    await userEvent.dblClick(within(grid).getByText('Fiat'));
    await waitFor(() => expect(network.calls('PUT /api/entity-records/Car/r1')).toHaveLength(1));
    expect(await within(grid).findByDisplayValue('Fiat')).toBeInTheDocument();
    expect(within(grid).queryByDisplayValue('Ford Motor')).toBeNull();
  });

  it('cancel drops a new row and sends nothing', async () => {
    const grid = await openGrid();
    await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
    await userEvent.click(await within(grid).findByRole('button', { name: 'Cancel record 3' }));
    await waitFor(() =>
      expect(within(grid).queryByRole('button', { name: /record 3/ })).toBeNull(),
    );
    expect(network.calls('POST /api/entity-records/Car')).toHaveLength(0);
  });

  it('keeps a row whose save failed in edit mode, and saves nothing on its own after it', async () => {
    network.use(http.put('/api/entity-records/Car/r1', () => apiError(403, 'FORBIDDEN', 'no')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const grid = await openGrid();
    await userEvent.click(within(grid).getByRole('button', { name: 'Edit record 1' }));
    const make = await within(grid).findByDisplayValue('Ford');
    await userEvent.type(make, ' Motor');
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));
    await waitFor(() => expect(network.calls('PUT /api/entity-records/Car/r1')).toHaveLength(1));
    expect(await within(grid).findByDisplayValue('Ford Motor')).toBeInTheDocument();

    // Adding a record saves the edited row once more; its failure must not bounce between rows.
    await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
    await waitFor(() => expect(network.calls('PUT /api/entity-records/Car/r1')).toHaveLength(2));
    // The second refusal has settled once the shared handler has logged it.
    await waitFor(() =>
      expect(
        consoleError.mock.calls.filter(([context]) => context === messages.records.saveContext),
      ).toHaveLength(2),
    );
    expect(await within(grid).findByRole('button', { name: 'Save record 1' })).toBeInTheDocument();
    expect(network.calls('PUT /api/entity-records/Car/r1')).toHaveLength(2);
    expect(network.calls('POST /api/entity-records/Car')).toHaveLength(0);
    expect(within(grid).getByDisplayValue('Ford Motor')).toBeInTheDocument();
    expect(within(grid).getByRole('button', { name: 'Save record 3' })).toBeInTheDocument();
    consoleError.mockRestore();
  });

  /** Leaves the grid for the home page, and comes back to it. */
  async function leaveAndComeBack(router: TestRouter) {
    await act(() => router.navigate('/'));
    await waitFor(() => expect(screen.queryByRole('grid')).not.toBeInTheDocument());
    await act(() => router.navigate('/entities/Car'));
    return screen.findByRole('grid', { name: 'Car records' });
  }

  it('shows an edited value after leaving the grid and coming back', async () => {
    const { router } = renderApp('/entities/Car', signedInAs('contributor', ['contributor']));
    const grid = await screen.findByRole('grid', { name: 'Car records' });
    await userEvent.click(await within(grid).findByRole('button', { name: 'Edit record 1' }));
    const make = await within(grid).findByDisplayValue('Ford');
    await userEvent.clear(make);
    await userEvent.type(make, 'Ford Motor');
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));
    await waitFor(() => expect(network.calls('PUT /api/entity-records/Car/r1')).toHaveLength(1));
    expect(await within(grid).findByRole('button', { name: 'Edit record 1' })).toBeInTheDocument();

    const again = await leaveAndComeBack(router);
    expect(await within(again).findByText('Ford Motor')).toBeInTheDocument();
    expect(within(again).queryByText('Ford')).not.toBeInTheDocument();
  });

  it('keeps a new record after leaving the grid and coming back', async () => {
    const { router } = renderApp('/entities/Car', signedInAs('contributor', ['contributor']));
    const grid = await screen.findByRole('grid', { name: 'Car records' });
    await within(grid).findByText('Ford');
    await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
    await userEvent.type((await within(grid).findAllByRole('textbox'))[0]!, 'Volvo');
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 3' }));
    expect(await within(grid).findByRole('button', { name: 'Edit record 3' })).toBeInTheDocument();

    const again = await leaveAndComeBack(router);
    expect(await within(again).findByText('Volvo')).toBeInTheDocument();
  });

  it('says in the page that an unknown entity is not here, with one toast and no records request', async () => {
    network.use(http.get('/api/entities/NoSuchEntity', () => apiError(404, 'NOT_FOUND')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/entities/NoSuchEntity', signedInAs('viewer', ['viewer']));
    const said = await screen.findByRole('status');
    expect(said).toHaveTextContent('There is no entity named NoSuchEntity.');
    expect(within(said).getByRole('link', { name: 'See the entities' })).toHaveAttribute(
      'href',
      '/entities',
    );
    expect(await screen.findByText(t('toast.notFound'))).toBeInTheDocument();
    expect(screen.getAllByText(t('toast.notFound'))).toHaveLength(1);
    expect(store.getState().ui.toasts).toHaveLength(1);
    expect(consoleError).toHaveBeenCalledWith(messages.records.fetchContext, expect.anything());
    expect(screen.queryByRole('grid')).toBeNull();
    expect(network.calls('GET /api/entities/NoSuchEntity')).toHaveLength(1);
    expect(network.calls('GET /api/entity-records/NoSuchEntity')).toHaveLength(0);
    consoleError.mockRestore();
  });

  it('shows a progress bar while the entity loads', async () => {
    let answer: () => void = () => {};
    network.use(
      http.get(
        '/api/entities/Car',
        () =>
          new Promise<Response>((resolve) => {
            answer = () => resolve(HttpResponse.json(car));
          }),
      ),
    );
    renderApp('/entities/Car', signedInAs('viewer', ['viewer']));
    expect(await screen.findByRole('progressbar', { name: 'Loading entity' })).toBeInTheDocument();
    await waitFor(() => expect(network.calls('GET /api/entities/Car')).toHaveLength(1));
    // The records wait for the entity.
    expect(network.calls('GET /api/entity-records/Car')).toHaveLength(0);
    answer();
    expect(await screen.findByRole('grid', { name: 'Car records' })).toBeInTheDocument();
  });

  it.each([
    ['the entity', '/api/entities/Car', 'The entity could not be loaded.'],
    ['the records', '/api/entity-records/Car', 'The records could not be loaded.'],
  ])('Retry asks again after %s failed to load, and shows the grid', async (_what, path, text) => {
    network.use(http.get(path, () => apiError(500, 'INTERNAL', 'x'), { once: true }));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/entities/Car', signedInAs('viewer', ['viewer']));
    const failure = await waitFor(() => {
      const alert = screen.getAllByRole('alert').find((el) => el.textContent?.includes(text));
      expect(alert).toBeDefined();
      return alert!;
    });
    expect(screen.queryByRole('grid')).toBeNull();
    expect(consoleError).toHaveBeenCalledWith(messages.records.fetchContext, expect.anything());
    await userEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    const grid = await screen.findByRole('grid', { name: 'Car records' });
    expect(await within(grid).findByText('Ford')).toBeInTheDocument();
    expect(screen.queryByText(text)).toBeNull();
    expect(network.calls(`GET ${path}`)).toHaveLength(2);
    consoleError.mockRestore();
  });

  it("says 'No records yet', and Add record appends a blank row in edit mode", async () => {
    network.use(http.get('/api/entity-records/Car', () => recordPage([])));
    renderApp('/entities/Car', signedInAs('contributor', ['contributor']));
    const grid = await screen.findByRole('grid', { name: 'Car records' });
    expect(await within(grid).findByText('No records yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add record' }));
    expect(await within(grid).findByRole('button', { name: 'Save record 1' })).toBeInTheDocument();
    expect(within(grid).getAllByRole('textbox')).toHaveLength(2);
    expect(within(grid).queryByText('No records yet')).toBeNull();
  });

  it("says 'No records yet' without Add record to a viewer", async () => {
    network.use(http.get('/api/entity-records/Car', () => recordPage([])));
    renderApp('/entities/Car', signedInAs('viewer', ['viewer']));
    const grid = await screen.findByRole('grid', { name: 'Car records' });
    expect(await within(grid).findByText('No records yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add record' })).toBeNull();
  });

  describe('many rows at once', () => {
    const bulkAnswers = () => {
      network.use(
        http.post('/api/entity-records/Car/bulk-delete', async ({ request }) => {
          const { selection } = (await body(request)) as { selection: { ids?: string[] } };
          const ids = selection.ids ?? stored.map((record) => record._id);
          stored = stored.filter((record) => !ids.includes(record._id));
          return HttpResponse.json({ ids });
        }),
        http.post('/api/entity-records/Car/bulk-restore', () => HttpResponse.json({ ids: [] })),
        http.post('/api/entity-records/Car/bulk-update', async ({ request }) => {
          const { selection } = (await body(request)) as { selection: { ids: string[] } };
          return HttpResponse.json({ ids: selection.ids });
        }),
      );
    };

    it('deletes the ticked records in one request, and Undo brings them back in one', async () => {
      bulkAnswers();
      const grid = await openGrid();
      // A ticked row's box is named Unselect row: the first Select row is the next row.
      await userEvent.click(within(grid).getAllByRole('checkbox', { name: 'Select row' })[0]!);
      await userEvent.click(within(grid).getAllByRole('checkbox', { name: 'Select row' })[0]!);
      const bar = screen.getByRole('region', { name: 'Selected records' });
      expect(within(bar).getByText('2 selected')).toBeInTheDocument();
      await userEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete records' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await waitFor(() =>
        expect(network.calls('POST /api/entity-records/Car/bulk-delete')).toHaveLength(1),
      );
      expect(await network.calls('POST /api/entity-records/Car/bulk-delete')[0]!.json()).toEqual({
        selection: { ids: ['r1', 'r2'] },
      });
      expect(await within(grid).findByText('No records yet')).toBeInTheDocument();
      await userEvent.click(await screen.findByRole('button', { name: 'Undo' }));
      await waitFor(() =>
        expect(network.calls('POST /api/entity-records/Car/bulk-restore')).toHaveLength(1),
      );
      expect(await network.calls('POST /api/entity-records/Car/bulk-restore')[0]!.json()).toEqual({
        ids: ['r1', 'r2'],
      });
    });

    it('selects every record the search matches, not only the page, and sets a field on them', async () => {
      bulkAnswers();
      network.use(
        http.get('/api/entity-records/Car', () =>
          HttpResponse.json({ records: stored, total: 120, totalIsEstimate: false }),
        ),
      );
      renderApp('/entities/Car?q=f', signedInAs('contributor', ['contributor']));
      const grid = await screen.findByRole('grid', { name: 'Car records' });
      await within(grid).findByText('Ford');
      await userEvent.click(within(grid).getByRole('checkbox', { name: 'Select all rows' }));
      const bar = screen.getByRole('region', { name: 'Selected records' });
      await userEvent.click(within(bar).getByRole('button', { name: 'Select all 120 matching' }));
      expect(within(bar).getByText('All 120 records matching are selected')).toBeInTheDocument();
      await userEvent.click(within(bar).getByRole('button', { name: 'Set a field' }));
      const dialog = await screen.findByRole('dialog', { name: 'Set a field' });
      // The field list starts at the first field a bulk action may set: Make.
      await userEvent.click(within(dialog).getByRole('combobox', { name: 'Field' }));
      await userEvent.click(await screen.findByRole('option', { name: 'Colour' }));
      await userEvent.type(within(dialog).getByLabelText('Value'), 'blue');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Set on 120' }));
      await waitFor(() =>
        expect(network.calls('POST /api/entity-records/Car/bulk-update')).toHaveLength(1),
      );
      expect(await network.calls('POST /api/entity-records/Car/bulk-update')[0]!.json()).toEqual({
        selection: { matching: { q: 'f' } },
        fields: { colour: 'blue' },
      });
    });

    it('names each record a refused delete could not take, and deletes none', async () => {
      network.use(
        http.post('/api/entity-records/Car/bulk-delete', () =>
          HttpResponse.json(
            {
              statusCode: 409,
              error: 'Conflict',
              code: 'BULK_REFUSED',
              message: 'Nothing was changed: 1 item was refused',
              report: {
                items: [{ id: 'r2', code: 'REFERENCED', message: '1 record points at this' }],
              },
            },
            { status: 409 },
          ),
        ),
      );
      const grid = await openGrid();
      await userEvent.click(within(grid).getByRole('checkbox', { name: 'Select all rows' }));
      await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete records' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(
        await screen.findByText('the record «Fiat»: 1 record points at this'),
      ).toBeInTheDocument();
      expect(within(grid).getByText('Ford')).toBeInTheDocument();
    });

    it('offers no selection to a viewer', async () => {
      renderApp('/entities/Car', signedInAs('viewer', ['viewer']));
      const grid = await screen.findByRole('grid', { name: 'Car records' });
      await within(grid).findByText('Ford');
      expect(within(grid).queryByRole('checkbox', { name: 'Select row' })).toBeNull();
    });
  });

  describe('the controls each role sees', () => {
    it.each([
      { who: 'an admin', roles: ['admin'] },
      { who: 'a contributor', roles: ['contributor'] },
    ])('offers $who Add record, Edit, Delete and Versions', async ({ roles }) => {
      renderApp('/entities/Car', signedInAs('someone', roles));
      const grid = await screen.findByRole('grid', { name: 'Car records' });
      await within(grid).findByText('Ford');
      expect(screen.getByRole('button', { name: 'Add record' })).toBeInTheDocument();
      expect(within(grid).getByRole('button', { name: 'Edit record 1' })).toBeInTheDocument();
      expect(within(grid).getByRole('button', { name: 'Delete record 1' })).toBeInTheDocument();
      expect(
        within(grid).getByRole('button', { name: 'Versions of record 1' }),
      ).toBeInTheDocument();
    });

    it("shows a record's versions by its fields' labels, in their order; one deleted since by its name", async () => {
      network.use(
        http.get('/api/entity-records/Car/r1/versions', () =>
          HttpResponse.json([
            {
              _id: 'v2',
              action: 'update',
              updatedBy: 'ada',
              versionDate: '2026-01-02T10:00:00.000Z',
              document: { _id: 'r1', entity_name: 'Car', fields: { colour: 'red', make: 'Ford' } },
              changes: [
                { field: 'colour', from: null, to: 'red' },
                { field: 'make', from: 'Fiat', to: 'Ford' },
                { field: 'wheels', from: '4', to: null },
              ],
            },
          ]),
        ),
      );
      renderApp('/entities/Car', signedInAs('viewer', ['viewer']));
      const grid = await screen.findByRole('grid', { name: 'Car records' });
      await userEvent.click(
        await within(grid).findByRole('button', { name: 'Versions of record 1' }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Record versions' });
      expect(await within(dialog).findByRole('list', { name: 'Changes' })).toHaveTextContent(
        'Make: Fiat → FordColour: added redwheels: removed 4',
      );
      expect(
        within(within(dialog).getByRole('table', { name: 'Snapshot' }))
          .getAllByRole('row')
          .map((row) => row.textContent),
      ).toEqual(['MakeFord', 'Colourred']);
    });

    it('shows a viewer a read-only grid: Versions only, and a double click edits nothing', async () => {
      renderApp('/entities/Car', signedInAs('viewer', ['viewer']));
      const grid = await screen.findByRole('grid', { name: 'Car records' });
      await within(grid).findByText('Ford');
      expect(
        within(grid).getByRole('button', { name: 'Versions of record 1' }),
      ).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Add record' })).toBeNull();
      expect(within(grid).queryByRole('button', { name: 'Edit record 1' })).toBeNull();
      expect(within(grid).queryByRole('button', { name: 'Delete record 1' })).toBeNull();
      await userEvent.dblClick(within(grid).getByText('Ford'));
      // A double click starts editing synchronously where it is allowed: nothing to wait for.
      expect(within(grid).queryByRole('textbox')).toBeNull();
      expect(within(grid).getByText('Ford')).toBeInTheDocument();
    });

    it("follows the record policies the permissions tell: hidden fields, and Edit and Delete only on the user's own rows", async () => {
      const mine = { match: 'all', clauses: [{ field: '_createdBy', op: 'eq', value: '$me' }] };
      network.use(
        http.get('/api/auth/permissions', () =>
          HttpResponse.json({
            ...permissionsFor(['contributor']),
            policies: {
              Car: {
                read: { where: null, hidden: ['colour'], roles: ['contributor'] },
                update: { where: [mine], readOnly: [], roles: ['contributor'] },
                delete: { where: [mine], roles: ['contributor'] },
              },
            },
          }),
        ),
        http.get('/api/entity-records/Car', () =>
          recordPage([
            { ...stored[0]!, _createdBy: 'id-someone-else' },
            { ...stored[1]!, _createdBy: 'id-carla' },
          ]),
        ),
      );
      renderApp('/entities/Car', signedInAs('carla', ['contributor']));
      const grid = await screen.findByRole('grid', { name: 'Car records' });
      await within(grid).findByText('Ford');
      await waitFor(() =>
        expect(within(grid).queryByRole('columnheader', { name: 'Colour' })).toBeNull(),
      );
      expect(within(grid).queryByText('red')).toBeNull();
      expect(within(grid).queryByRole('button', { name: 'Edit record 1' })).toBeNull();
      expect(within(grid).queryByRole('button', { name: 'Delete record 1' })).toBeNull();
      expect(within(grid).getByRole('button', { name: 'Edit record 2' })).toBeInTheDocument();
      expect(within(grid).getByRole('button', { name: 'Delete record 2' })).toBeInTheDocument();
      await userEvent.dblClick(within(grid).getByText('Ford'));
      expect(within(grid).queryByRole('textbox')).toBeNull();
    });

    it('tells a user with no role to ask for one, and asks for neither the entity nor its records', async () => {
      renderApp('/entities/Car', signedInAs('newcomer', []));
      expect(await screen.findByText(t('common.needsRole'))).toBeInTheDocument();
      expect(screen.queryByText(/Your role does not allow/)).toBeNull();
      expect(screen.queryByRole('grid')).toBeNull();
      expect(network.calls('GET /api/entities/Car')).toHaveLength(0);
      expect(network.calls('GET /api/entity-records/Car')).toHaveLength(0);
    });
  });
});
