import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import type { EntityRecord } from '@common/schemas/entities';
import { apiError, liveEvents, recordPage, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

/** The record grid while others work: conflicts, their saves and their edits. */
describe('/entities/:entityName with others at work', () => {
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
  let stored: EntityRecord[];
  const network = setupNetwork(
    http.get('/api/entities/Car', () => HttpResponse.json(car)),
    http.get('/api/entity-records/Car', () => recordPage(stored)),
  );
  beforeEach(() => {
    stored = [
      { _id: 'r1', entity_name: 'Car', fields: { make: 'Ford', colour: 'red' }, _version: 1 },
      { _id: 'r2', entity_name: 'Car', fields: { make: 'Fiat' }, _version: 1 },
    ];
  });

  /** Another person saves record 1 as `make` (version 2). */
  const theySave = (make: string) => {
    stored = stored.map((record) =>
      record._id === 'r1' ? { ...record, fields: { make, colour: 'red' }, _version: 2 } : record,
    );
  };
  /** A PUT that refuses a stale version, as the server does, and stores a current one. */
  const versionCheckingPut = http.put('/api/entity-records/Car/r1', async ({ request }) => {
    const body = (await request.json()) as { fields: Record<string, string>; _version: number };
    if (body._version !== stored[0]!._version)
      return HttpResponse.json(
        {
          statusCode: 409,
          error: 'Conflict',
          code: 'VERSION_CONFLICT',
          message: 'Someone else changed this item since you opened it',
          current: stored[0],
        },
        { status: 409 },
      );
    stored = [
      { ...stored[0]!, fields: body.fields, _version: stored[0]!._version + 1 },
      stored[1]!,
    ];
    return HttpResponse.json(stored[0]);
  });

  /** The event stream tells that ada saved record 1 (version 2). */
  const adaSavedRecord1 = (eventId: number) =>
    liveEvents.send('change', {
      eventId,
      resource: 'entity-records',
      id: 'r1',
      entityName: 'Car',
      action: 'update',
      version: 2,
      actorId: 'id-ada',
      actor: 'ada',
    });

  /** The event stream tells that ada started (or stopped) editing record `id`. */
  const adaEdits = (id: string, editing: boolean) =>
    liveEvents.send('presence', {
      resource: 'entity-records',
      id,
      entityName: 'Car',
      editing,
      actorId: 'id-ada',
      actor: 'ada',
    });

  const openGrid = async () => {
    renderApp('/entities/Car', signedInAs('contributor', ['contributor']));
    const grid = await screen.findByRole('grid', { name: 'Car records' });
    await within(grid).findByText('Ford');
    await liveEvents.opened();
    return grid;
  };
  const editMake = async (grid: HTMLElement, make: string) => {
    await userEvent.click(within(grid).getByRole('button', { name: 'Edit record 1' }));
    const input = await within(grid).findByDisplayValue('Ford');
    await userEvent.clear(input);
    await userEvent.type(input, make);
  };

  it('shows their change against mine when a save meets a newer version, and Apply mine saves on top', async () => {
    network.use(versionCheckingPut);
    const consoleError = jest.spyOn(console, 'error');
    const grid = await openGrid();
    await editMake(grid, 'Ford Motor');
    theySave('Ford GT');
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));

    const dialog = await screen.findByRole('dialog', {
      name: 'Someone else changed the record «Ford» while you were editing',
    });
    // A conflict is not a fault: nothing is logged as an error.
    expect(consoleError).not.toHaveBeenCalledWith(messages.records.saveContext, expect.anything());
    consoleError.mockRestore();
    const make = within(dialog).getByRole('row', { name: /^Make/ });
    expect(within(make).getByText('Ford → Ford GT')).toBeInTheDocument();
    expect(within(make).getByText('Ford → Ford Motor')).toBeInTheDocument();
    // The row stays in edit mode meanwhile, with what was typed.
    expect(within(grid).getByDisplayValue('Ford Motor')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply mine' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const puts = network.calls('PUT /api/entity-records/Car/r1');
    expect(await puts.at(-1)!.json()).toEqual({
      fields: { make: 'Ford Motor', colour: 'red' },
      _version: 2,
    });
    expect(await within(grid).findByText('Ford Motor')).toBeInTheDocument();
    expect(within(grid).queryByDisplayValue('Ford Motor')).not.toBeInTheDocument();
  });

  it('Keep theirs drops my edit and shows their values', async () => {
    network.use(versionCheckingPut);
    const grid = await openGrid();
    await editMake(grid, 'Ford Motor');
    theySave('Ford GT');
    adaSavedRecord1(7);
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'ada changed the record «Ford» while you were editing',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep theirs' }));
    expect(await within(grid).findByText('Ford GT')).toBeInTheDocument();
    // The keyboard is back on the row.
    await waitFor(() =>
      expect(within(grid).getByRole('gridcell', { name: 'Ford GT' })).toHaveFocus(),
    );
    expect(within(grid).queryByDisplayValue('Ford Motor')).not.toBeInTheDocument();
    expect(network.calls('PUT /api/entity-records/Car/r1')).toHaveLength(1);
  });

  it('Edit further puts mine on top of theirs in the row: their change to another field stays', async () => {
    network.use(versionCheckingPut);
    const grid = await openGrid();
    await editMake(grid, 'Ford Motor');
    // They change the colour only.
    stored = stored.map((record) =>
      record._id === 'r1'
        ? { ...record, fields: { make: 'Ford', colour: 'blue' }, _version: 2 }
        : record,
    );
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));
    const dialog = await screen.findByRole('dialog', { name: /changed the record «Ford»/ });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit further' }));

    expect(await within(grid).findByDisplayValue('blue')).toBeInTheDocument();
    expect(within(grid).getByDisplayValue('Ford Motor')).toBeInTheDocument();
    await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));
    await waitFor(() => expect(network.calls('PUT /api/entity-records/Car/r1')).toHaveLength(2));
    expect(await network.calls('PUT /api/entity-records/Car/r1').at(-1)!.json()).toEqual({
      fields: { make: 'Ford Motor', colour: 'blue' },
      _version: 2,
    });
  });

  it("shows another person's save of the list at once, and flags the row being edited", async () => {
    network.use(http.put('/api/entity-records/Car/r1', () => apiError(500, 'INTERNAL')));
    const grid = await openGrid();
    await userEvent.click(within(grid).getByRole('button', { name: 'Edit record 1' }));
    await within(grid).findByDisplayValue('Ford');
    stored = [...stored, { _id: 'r3', entity_name: 'Car', fields: { make: 'Saab' }, _version: 1 }];
    theySave('Ford GT');
    adaSavedRecord1(8);
    expect(await within(grid).findByText('Saab')).toBeInTheDocument();
    expect(await screen.findByText(/Changed by ada — review/)).toBeInTheDocument();
    // The row being edited keeps its edit.
    expect(within(grid).getByDisplayValue('Ford')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'ada changed the record «Ford» while you were editing',
    });
    expect(within(dialog).getByText('Ford → Ford GT')).toBeInTheDocument();
  });

  it('says who else is editing a row, and tells others while this user edits one', async () => {
    const grid = await openGrid();
    adaEdits('r2', true);
    expect(await screen.findByText('ada is editing the record «Fiat».')).toBeInTheDocument();

    const lastPresence = async () =>
      (await network.calls('POST /api/events/presence').at(-1)?.clone().json()) as unknown;
    await userEvent.click(within(grid).getByRole('button', { name: 'Edit record 1' }));
    await waitFor(async () =>
      expect(await lastPresence()).toEqual({
        resource: 'entity-records',
        id: 'r1',
        entityName: 'Car',
        editing: true,
      }),
    );
    await userEvent.click(within(grid).getByRole('button', { name: 'Cancel record 1' }));
    await waitFor(async () => expect(await lastPresence()).toMatchObject({ editing: false }));

    adaEdits('r2', false);
    await waitFor(() =>
      expect(screen.queryByText('ada is editing the record «Fiat».')).not.toBeInTheDocument(),
    );
  });

  describe('a record deleted by someone else while it is being edited', () => {
    /** The event stream tells that ada deleted record 1, which the server no longer has. */
    const adaDeletesRecord1 = (eventId: number) => {
      stored = stored.filter((record) => record._id !== 'r1');
      liveEvents.send('change', {
        eventId,
        resource: 'entity-records',
        id: 'r1',
        entityName: 'Car',
        action: 'delete',
        version: 1,
        actorId: 'id-ada',
        actor: 'ada',
      });
    };
    /** The restore of record 1's delete: it is back as it was deleted, at version 2. */
    const restoresRecord1 = http.post(
      '/api/entity-records/Car/r1/versions/v-delete/restore',
      () => {
        const back = {
          _id: 'r1',
          entity_name: 'Car',
          fields: { make: 'Ford', colour: 'red' },
          _version: 2,
        };
        stored = [back, ...stored];
        return HttpResponse.json(back);
      },
    );
    const deletedWhileEditing = async () => {
      const grid = await openGrid();
      await editMake(grid, 'Ford Motor');
      adaDeletesRecord1(9);
      const alert = await screen.findByRole('alert', {
        name: 'ada deleted the record «Ford» while you were editing it',
      });
      return { grid, alert };
    };

    it('keeps the row in the grid as typed, in its place, and says who deleted it', async () => {
      const { grid } = await deletedWhileEditing();
      // The list has been read again without it; the row and its text stay, first as before.
      await waitFor(() => expect(network.calls('GET /api/entity-records/Car')).toHaveLength(2));
      expect(within(grid).getByDisplayValue('Ford Motor')).toBeInTheDocument();
      const [first] = within(grid).getAllByRole('row').slice(1);
      expect(within(first!).getByDisplayValue('Ford Motor')).toBeInTheDocument();
    });

    it('Restore and apply mine brings the record back, then saves what was typed over it', async () => {
      network.use(
        http.get('/api/entity-records/Car/r1/versions', () =>
          HttpResponse.json([
            {
              _id: 'v-delete',
              action: 'delete',
              updatedBy: 'ada',
              versionDate: new Date().toISOString(),
              document: { _id: 'r1', entity_name: 'Car', fields: { make: 'Ford', colour: 'red' } },
              changes: [],
            },
          ]),
        ),
        restoresRecord1,
        versionCheckingPut,
      );
      const { grid, alert } = await deletedWhileEditing();
      await userEvent.click(within(alert).getByRole('button', { name: 'Restore and apply mine' }));
      expect(await within(grid).findByText('Ford Motor')).toBeInTheDocument();
      expect(await network.calls('PUT /api/entity-records/Car/r1').at(-1)!.json()).toEqual({
        fields: { make: 'Ford Motor', colour: 'red' },
        _version: 2,
      });
      await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
      expect(within(grid).queryByDisplayValue('Ford Motor')).not.toBeInTheDocument();
    });

    it('Copy my values puts what was typed on the clipboard, labelled', async () => {
      const user = userEvent.setup();
      const { alert } = await deletedWhileEditing();
      await user.click(within(alert).getByRole('button', { name: 'Copy my values' }));
      expect(await navigator.clipboard.readText()).toBe('Make: Ford Motor\nColour: red');
      expect(within(alert).getByRole('status')).toHaveTextContent(
        'Your values are on the clipboard.',
      );
    });

    it('takes the notice away once the record is restored from Recently deleted', async () => {
      network.use(
        http.put('/api/entity-records/Car/r1', () => apiError(404, 'NOT_FOUND')),
        http.get('/api/entity-records/Car/recently-deleted', () =>
          HttpResponse.json([
            {
              _id: 'r1',
              versionId: 'v-delete',
              deletedBy: 'ada',
              deletedAt: new Date().toISOString(),
              document: { _id: 'r1', entity_name: 'Car', fields: { make: 'Ford', colour: 'red' } },
            },
          ]),
        ),
        restoresRecord1,
      );
      jest.spyOn(console, 'error').mockImplementation(() => {});
      const grid = await openGrid();
      await editMake(grid, 'Ford Motor');
      // Deleted meanwhile, unheard: the save finds it gone.
      stored = stored.filter((record) => record._id !== 'r1');
      await userEvent.click(within(grid).getByRole('button', { name: 'Save record 1' }));
      const gone = 'Someone else deleted the record «Ford» while you were editing it';
      await screen.findByRole('alert', { name: gone });

      await userEvent.click(screen.getByRole('button', { name: 'Recently deleted' }));
      const dialog = await screen.findByRole('dialog', { name: /Recently deleted/ });
      await userEvent.click(await within(dialog).findByRole('button', { name: /^Restore Ford/ }));
      // The stream tells everyone, this user too, of the restore.
      liveEvents.send('change', {
        eventId: 12,
        resource: 'entity-records',
        id: 'r1',
        entityName: 'Car',
        action: 'restore',
        version: 2,
        actorId: 'id-contributor',
        actor: 'contributor',
      });
      await waitFor(() =>
        expect(
          network.calls('POST /api/entity-records/Car/r1/versions/v-delete/restore'),
        ).toHaveLength(1),
      );
      await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(screen.queryByRole('alert', { name: gone })).toBeNull());
      // What was typed is still there to save.
      expect(within(grid).getByDisplayValue('Ford Motor')).toBeInTheDocument();
    });

    it('Discard takes the row away with what was typed', async () => {
      const { grid, alert } = await deletedWhileEditing();
      await userEvent.click(within(alert).getByRole('button', { name: 'Discard' }));
      await waitFor(() =>
        expect(within(grid).queryByDisplayValue('Ford Motor')).not.toBeInTheDocument(),
      );
      expect(within(grid).queryByText('Ford')).not.toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });

  it('names who is editing a record in the question before deleting it', async () => {
    const grid = await openGrid();
    adaEdits('r2', true);
    await screen.findByText('ada is editing the record «Fiat».');
    await userEvent.click(within(grid).getByRole('button', { name: 'Delete record 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete record' });
    expect(dialog).toHaveTextContent('Delete the record «Fiat»? ada is editing it.');
  });

  it('shows the records once an entity that was not there is restored by someone else', async () => {
    let defined = false;
    network.use(
      http.get('/api/entities/Car', () =>
        defined ? HttpResponse.json(car) : apiError(404, 'NOT_FOUND'),
      ),
    );
    jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/entities/Car', signedInAs('contributor', ['contributor']));
    expect(await screen.findByRole('status')).toHaveTextContent('There is no entity named Car.');
    await liveEvents.opened();

    defined = true;
    liveEvents.send('change', {
      eventId: 1,
      resource: 'entities',
      id: 'id-Car',
      action: 'restore',
      version: 2,
      actorId: 'id-ada',
      actor: 'ada',
    });
    const grid = await screen.findByRole('grid', { name: 'Car records' });
    expect(await within(grid).findByText('Ford')).toBeInTheDocument();
  });
});
