import { screen, within } from '@testing-library/react';
import { DEMO_ACCOUNTS } from '@common/constants';
import { renderApp, signedInAs } from '../../helpers/render';

describe('the home page', () => {
  it('greets a visitor when nobody is signed in', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Hello, visitor');
  });

  it('greets the signed-in user by name', async () => {
    renderApp('/', signedInAs('ada'));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Hello, ada');
  });

  it('lists the demo credentials of the viewer and contributor accounts', async () => {
    renderApp('/');
    const table = await screen.findByRole('table', { name: 'Demo credentials' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual(DEMO_ACCOUNTS.map(({ role, username, password }) => [role, username, password]));
    expect(rows.map((row) => row.textContent)).toEqual([
      'viewerviewerviewer123',
      'contributorcontributorcontributor123',
    ]);
  });

  it('describes the stack and the notes on building with an AI assistant', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Technology stack' })).toBeInTheDocument();
    expect(screen.getByText(/Redux Toolkit/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /AI assistant/ })).toBeInTheDocument();
  });
});
