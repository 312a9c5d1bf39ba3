import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@common/messages';
import { renderApp } from '../helpers/render';

describe('/forgot-password', () => {
  it('is reached from the login page and tells the visitor to ask an administrator', async () => {
    const { router } = renderApp('/login');
    await userEvent.click(await screen.findByRole('link', { name: 'Forgot Password?' }));

    expect(
      await screen.findByRole('heading', { name: messages.auth.forgotPasswordTitle, level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText(messages.auth.forgotPasswordHelp)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Back to sign-in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
