import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Entity } from '@common/schemas/entities';
import type { RolePolicy } from '@common/schemas/policies';
import { accessForm, policiesOf } from '@/features/entities/policyForm';
import { apiError, setupNetwork, versionConflict } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const fields: Entity['fields'] = [
  { name: 'person', label: 'Person' },
  { name: 'salary', label: 'Salary', type: 'number' },
  { name: 'active', label: 'Active', type: 'boolean' },
];
const staff: Entity = {
  _id: 'id-Staff',
  _version: 1,
  name: 'Staff',
  description: '',
  category: 'Generic',
  fields,
  policies: [
    {
      role: 'viewer',
      read: { match: 'all', clauses: [{ field: 'person', op: 'eq', value: '$me' }] },
      fields: { salary: 'hidden' },
    },
  ],
};
const roles = ['admin', 'contributor', 'viewer'].map((name, index) => ({
  _id: `r-${index}`,
  _version: 1,
  name,
  requiresSecondFactor: false,
}));

let stored: Entity;
const network = setupNetwork(
  http.get('/api/entities/id-Staff', () => HttpResponse.json(stored)),
  http.get('/api/roles', () => HttpResponse.json(roles)),
  http.put('/api/entities/id-Staff/policies', async ({ request }) => {
    const body = (await request.json()) as { policies: RolePolicy[]; _version: number };
    if (body._version !== stored._version) return versionConflict(stored);
    stored = { ...stored, policies: body.policies, _version: stored._version + 1 };
    return HttpResponse.json(stored);
  }),
);
beforeEach(() => {
  stored = staff;
});
const asAdmin = signedInAs('admin', ['admin']);

async function choose(combobox: HTMLElement, option: string) {
  await userEvent.click(combobox);
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('the Access form', () => {
  it('gives back the policies it was given, whatever their clauses', () => {
    const policies: RolePolicy[] = [
      {
        role: 'contributor',
        read: {
          match: 'any',
          clauses: [
            { field: '_createdBy', op: 'eq', value: '$me' },
            { field: 'salary', op: 'in', value: [1, 2.5] },
            { field: 'active', op: 'ne', value: false },
            { field: 'person', op: 'empty', value: false },
          ],
        },
        update: { match: 'all', clauses: [{ field: 'salary', op: 'lt', value: 5000 }] },
        fields: { salary: 'readOnly', active: 'hidden' },
      },
      { role: 'viewer' },
    ];
    expect(policiesOf(accessForm(policies, fields), fields)).toEqual(policies);
  });
});

describe('/entities/edit/:entityId/access', () => {
  it('shows the policies there are, and sends a new one with typed values and restricted fields only', async () => {
    renderApp('/entities/edit/id-Staff/access', asAdmin);
    const viewer = await screen.findByRole('region', { name: 'Policy of viewer' });
    expect(
      within(viewer).getByRole('combobox', { name: 'Records they may read' }),
    ).toHaveTextContent('Records matching all of these');
    expect(within(viewer).getByRole('combobox', { name: 'Salary' })).toHaveTextContent('Hidden');
    // Admin takes no policy (the server refuses one), and viewer has one: contributor is left.
    await userEvent.click(screen.getByRole('combobox', { name: 'Add a policy for' }));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'contributor',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'contributor' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add policy' }));

    const contributor = screen.getByRole('region', { name: 'Policy of contributor' });
    await choose(
      within(contributor).getByRole('combobox', { name: 'Records they may delete' }),
      'Records matching any of these',
    );
    await userEvent.click(
      within(contributor).getByRole('button', { name: 'Add a condition on deleting' }),
    );
    const second = within(contributor).getByRole('group', { name: 'Deleting: condition 2' });
    await choose(within(second).getByRole('combobox', { name: 'Field' }), 'Salary');
    await choose(within(second).getByRole('combobox', { name: 'Comparison' }), 'is one of');
    const value = within(second).getByRole('textbox', { name: 'Value' });
    await userEvent.clear(value);
    await userEvent.type(value, '10, 20.5');
    await choose(within(contributor).getByRole('combobox', { name: 'Active' }), 'Read-only');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Access saved')).toBeInTheDocument();
    const [put] = network.calls('PUT /api/entities/id-Staff/policies');
    expect(await put!.json()).toEqual({
      _version: 1,
      policies: [
        staff.policies![0],
        {
          role: 'contributor',
          delete: {
            match: 'any',
            clauses: [
              { field: '_createdBy', op: 'eq', value: '$me' },
              { field: 'salary', op: 'in', value: [10, 20.5] },
            ],
          },
          fields: { active: 'readOnly' },
        },
      ],
    });
  });

  it("shows a refusal under the value it names, and removing a condition's last clause means every record again", async () => {
    network.use(
      http.put('/api/entities/id-Staff/policies', () =>
        apiError(
          400,
          'VALIDATION_FAILED',
          'body.policies.0.read.clauses.0.value: must be a number',
          [{ field: 'body.policies.0.read.clauses.0.value', message: 'must be a number' }],
        ),
      ),
    );
    renderApp('/entities/edit/id-Staff/access', asAdmin);
    const viewer = await screen.findByRole('region', { name: 'Policy of viewer' });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const first = within(viewer).getByRole('group', { name: 'Reading: condition 1' });
    expect(await within(first).findByText('must be a number')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The access could not be saved');

    await userEvent.click(
      within(viewer).getByRole('button', { name: "Remove reading's condition 1" }),
    );
    expect(
      within(viewer).getByRole('combobox', { name: 'Records they may read' }),
    ).toHaveTextContent('Every record');
  });

  it("a save that met another admin's shows theirs against mine; Keep theirs takes theirs", async () => {
    renderApp('/entities/edit/id-Staff/access', asAdmin);
    const viewer = await screen.findByRole('region', { name: 'Policy of viewer' });
    await choose(within(viewer).getByRole('combobox', { name: 'Salary' }), 'Read-only');
    stored = { ...staff, _version: 2, policies: [{ role: 'viewer' }] };
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', {
      name: 'Someone else changed the entity Staff while you were editing',
    });
    const row = within(dialog).getByRole('row', { name: /^Policy of viewer/ });
    expect(
      within(row).getByText('Read: Person is $me; Salary hidden → no restriction'),
    ).toBeInTheDocument();
    expect(
      within(row).getByText(
        'Read: Person is $me; Salary hidden → Read: Person is $me; Salary read-only',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep theirs' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const theirs = screen.getByRole('region', { name: 'Policy of viewer' });
    expect(within(theirs).getByRole('combobox', { name: 'Salary' })).toHaveTextContent(
      'Visible and editable',
    );
    expect(network.calls('PUT /api/entities/id-Staff/policies')).toHaveLength(1);
  });

  it("Apply mine over another admin's save keeps their change to a role I left alone", async () => {
    stored = { ...staff, policies: [...staff.policies!, { role: 'contributor' }] };
    renderApp('/entities/edit/id-Staff/access', asAdmin);
    const contributor = await screen.findByRole('region', { name: 'Policy of contributor' });
    await choose(within(contributor).getByRole('combobox', { name: 'Person' }), 'Read-only');
    // Another admin makes the viewers' salary read-only rather than hidden, meanwhile.
    const theirs: RolePolicy = { ...staff.policies![0]!, fields: { salary: 'readOnly' } };
    stored = { ...stored, _version: 2, policies: [theirs, { role: 'contributor' }] };
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Someone else changed the entity Staff while you were editing',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply mine' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const last = network.calls('PUT /api/entities/id-Staff/policies').at(-1)!;
    expect(((await last.json()) as { policies: RolePolicy[] }).policies).toEqual([
      theirs,
      { role: 'contributor', fields: { person: 'readOnly' } },
    ]);
  });

  it('gives the keyboard on to the next way on when a condition or a policy is removed', async () => {
    renderApp('/entities/edit/id-Staff/access', asAdmin);
    const viewer = await screen.findByRole('region', { name: 'Policy of viewer' });
    await userEvent.click(
      within(viewer).getByRole('button', { name: 'Add a condition on reading' }),
    );
    await userEvent.click(
      within(viewer).getByRole('button', { name: "Remove reading's condition 2" }),
    );
    expect(
      within(viewer).getByRole('button', { name: 'Add a condition on reading' }),
    ).toHaveFocus();
    await userEvent.click(
      within(viewer).getByRole('button', { name: "Remove reading's condition 1" }),
    );
    expect(within(viewer).getByRole('combobox', { name: 'Records they may read' })).toHaveFocus();
    await userEvent.click(
      within(viewer).getByRole('button', { name: 'Remove the policy of viewer' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Add a policy for' })).toHaveFocus(),
    );
  });

  it("names a condition's field that is gone from the entity", async () => {
    stored = {
      ...staff,
      policies: [
        {
          role: 'viewer',
          read: { match: 'all', clauses: [{ field: 'beta', op: 'eq', value: 'x' }] },
        },
      ],
    };
    renderApp('/entities/edit/id-Staff/access', asAdmin);
    const condition = await screen.findByRole('group', { name: 'Reading: condition 1' });
    expect(within(condition).getByRole('combobox', { name: 'Field' })).toHaveTextContent(
      'beta (no longer a field)',
    );
    expect(
      within(condition).getByText('This field is gone: the condition lets no record through'),
    ).toBeInTheDocument();
  });

  it('is closed to whoever may not write policies: nothing is asked for', async () => {
    renderApp('/entities/edit/id-Staff/access', signedInAs('contributor', ['contributor']));
    expect(await screen.findByText(/editing who may see and change records/)).toBeInTheDocument();
    expect(network.calls('GET /api/entities/id-Staff')).toHaveLength(0);
  });

  it('the entity form has an Access tab for an admin', async () => {
    renderApp('/entities/edit/id-Staff', asAdmin);
    const tab = await screen.findByRole('tab', { name: 'Access' });
    expect(tab).toHaveAttribute('href', '/entities/edit/id-Staff/access');
    expect(screen.getByRole('tab', { name: 'Definition' })).toHaveAttribute('aria-current', 'page');
  });
});
