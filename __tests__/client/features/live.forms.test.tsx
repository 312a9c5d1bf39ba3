import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Entity } from '@common/schemas/entities';
import type { User } from '@common/schemas/users';
import { liveEvents, setupNetwork, versionConflict } from '../helpers/network';
import { renderApp, signedInAs } from '../helpers/render';

const ada: User = {
  _id: 'u-ada',
  _version: 1,
  username: 'ada',
  email: 'ada@example.com',
  roles: [],
};
const car: Entity = {
  _id: 'id-Car',
  _version: 1,
  name: 'Car',
  description: 'Cars',
  category: 'Vehicles',
  fields: [{ name: 'make', label: 'Make' }],
};

/** Edits another person saved meanwhile, on the users grid and the entity form. */
describe('saves that meet a newer version', () => {
  let stored: { user: User; entity: Entity };
  const network = setupNetwork(
    http.get('/api/users', () => HttpResponse.json([stored.user])),
    http.put('/api/users/u-ada', async ({ request }) => {
      const body = (await request.json()) as Partial<User>;
      if (body._version !== stored.user._version) return versionConflict(stored.user);
      stored.user = { ...stored.user, ...body, _version: stored.user._version + 1 };
      return HttpResponse.json(stored.user);
    }),
    http.get('/api/entities/id-Car', () => HttpResponse.json(stored.entity)),
    http.put('/api/entities/id-Car', async ({ request }) => {
      const body = (await request.json()) as Partial<Entity> & { entityId: string };
      if (body._version !== stored.entity._version) return versionConflict(stored.entity);
      const { description, category, fields } = body;
      stored.entity = {
        ...stored.entity,
        ...{ description, category, fields },
        _version: stored.entity._version + 1,
      } as Entity;
      return HttpResponse.json(stored.entity);
    }),
  );
  beforeEach(() => {
    stored = { user: ada, entity: car };
  });

  it('the users grid shows their change against mine; Keep theirs drops my edit', async () => {
    renderApp('/users', signedInAs('admin', ['admin']));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit ada' }));
    const email = await screen.findByDisplayValue('ada@example.com');
    await userEvent.clear(email);
    await userEvent.type(email, 'ada@mine.example');
    stored.user = { ...ada, email: 'ada@theirs.example', _version: 2 };
    await userEvent.click(screen.getByRole('button', { name: 'Save ada' }));

    const dialog = await screen.findByRole('dialog', {
      name: 'Someone else changed the user ada while you were editing',
    });
    const row = within(dialog).getByRole('row', { name: /^Email/ });
    expect(within(row).getByText('ada@example.com → ada@theirs.example')).toBeInTheDocument();
    expect(within(row).getByText('ada@example.com → ada@mine.example')).toBeInTheDocument();
    // No toast says it twice.
    expect(screen.queryByText(/changed this item meanwhile/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep theirs' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue('ada@mine.example')).toBeNull();
    expect(network.calls('PUT /api/users/u-ada')).toHaveLength(1);
  });

  it('the entity form says who saved meanwhile, and Apply mine saves on top of their version', async () => {
    renderApp('/entities/edit/id-Car', signedInAs('admin', ['admin']));
    const description = await screen.findByLabelText('Description');
    await liveEvents.opened();
    await userEvent.clear(description);
    await userEvent.type(description, 'Mine');
    stored.entity = { ...car, category: 'Fleet', _version: 2 };
    liveEvents.send(
      'change',
      {
        eventId: 3,
        resource: 'entities',
        id: 'id-Car',
        entityName: null,
        action: 'update',
        version: 2,
        actorId: 'u-bob',
        actor: 'bob',
      },
      3,
    );
    expect(await screen.findByText(/Changed by bob — review/)).toBeInTheDocument();
    // The form keeps what was typed.
    expect(description).toHaveValue('Mine');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'bob changed the entity Car while you were editing',
    });
    expect(within(dialog).getByText('Vehicles → Fleet')).toBeInTheDocument();
    expect(within(dialog).getByText('Cars → Mine')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply mine' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const puts = network.calls('PUT /api/entities/id-Car');
    expect(await puts.at(-1)!.json()).toMatchObject({ description: 'Mine', _version: 2 });
    expect(stored.entity).toMatchObject({ description: 'Mine', _version: 3 });
  });
});

/** Who else is editing an entity, where its card and its delete question can say so. */
describe('the entity list with others at work', () => {
  setupNetwork(http.get('/api/entities', () => HttpResponse.json([car])));

  it("says on an entity's card who is editing it, and names them in the delete question", async () => {
    renderApp('/entities', signedInAs('admin', ['admin']));
    const card = await screen.findByLabelText('Car');
    await liveEvents.opened();
    liveEvents.send('presence', {
      resource: 'entities',
      id: 'id-Car',
      entityName: null,
      editing: true,
      actorId: 'id-ada',
      actor: 'ada',
    });
    expect(await within(card).findByText('ada is editing this entity.')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete entity' });
    expect(dialog).toHaveTextContent(
      'Delete Car and all its records? You can undo it for a few seconds. ada is editing it.',
    );
  });
});
