import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { t } from '@/i18n/useT';
import { renderApp } from '../helpers/render';

describe('/forgot-password', () => {
  it('is reached from the login page and tells the visitor to ask an administrator', async () => {
    const { router } = renderApp('/login');
    await userEvent.click(await screen.findByRole('link', { name: 'Forgot Password?' }));

    expect(
      await screen.findByRole('heading', { name: t('auth.forgotTitle'), level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText(t('auth.forgotHelp'))).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Back to sign-in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
