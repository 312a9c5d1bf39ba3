import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import { apiError, setupNetwork } from '../helpers/network';
import { fakeToken, renderApp } from '../helpers/render';

const session = {
  jwt: fakeToken({
    sub: 'id-ada',
    username: 'ada',
    roles: [],
    exp: Math.floor(Date.now() / 1000) + 300,
  }),
  refreshToken: 'r1',
};
const step = (methods: string[], enrol = false) => ({
  secondFactor: {
    challenge: 'step-1',
    methods,
    enrol,
    expiresAt: new Date(Date.now() + 300_000).toISOString(),
  },
});

const network = setupNetwork();
beforeEach(() => window.localStorage.clear());

async function typePassword() {
  await userEvent.type(await screen.findByLabelText(/Username/), 'ada');
  await userEvent.type(screen.getByLabelText(/Password/), 'secret-password');
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('the sign-in’s second step', () => {
  it('asks for a code after the password; a wrong one is said under it, kept, and a right one signs in', async () => {
    let tries = 0;
    network.use(
      http.post('/api/auth/login', () => HttpResponse.json(step(['totp', 'recovery_code']))),
      http.post('/api/auth/login/second-factor', () =>
        ++tries === 1
          ? apiError(401, 'INVALID_SECOND_FACTOR', 'This code is not valid (or was already used)')
          : HttpResponse.json(session),
      ),
    );
    const { router, store } = renderApp('/login');
    await typePassword();
    const form = await screen.findByRole('form', { name: 'Second step' });
    expect(store.getState().auth.accessToken).toBeNull();
    expect(within(form).queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();

    await userEvent.type(within(form).getByLabelText(/Code/), '123456');
    await userEvent.click(within(form).getByRole('button', { name: 'Verify' }));
    await waitFor(() =>
      expect(within(form).getByLabelText(/Code/)).toHaveAccessibleDescription(t('auth.codeFailed')),
    );
    expect(within(form).getByLabelText(/Code/)).toHaveValue('123456');
    expect(store.getState().ui.toasts).toEqual([]);

    await userEvent.clear(within(form).getByLabelText(/Code/));
    await userEvent.type(within(form).getByLabelText(/Code/), '654321');
    await userEvent.click(within(form).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.user?.username).toBe('ada');
    expect(await network.calls('POST /api/auth/login/second-factor')[1]!.json()).toEqual({
      challenge: 'step-1',
      code: '654321',
    });
  });

  it('says when the step expired, and goes back to the password', async () => {
    network.use(
      http.post('/api/auth/login', () => HttpResponse.json(step(['totp']))),
      http.post('/api/auth/login/second-factor', () => apiError(401, 'SIGN_IN_EXPIRED', 'expired')),
    );
    renderApp('/login');
    await typePassword();
    const form = await screen.findByRole('form', { name: 'Second step' });
    await userEvent.type(within(form).getByLabelText(/Code/), '123456');
    await userEvent.click(within(form).getByRole('button', { name: 'Verify' }));
    expect(await within(form).findByText(t('auth.signInExpired'))).toBeInTheDocument();
    expect(within(form).queryByLabelText(/Code/)).not.toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Back to sign-in' }));
    expect(await screen.findByRole('form', { name: 'Login' })).toBeInTheDocument();
  });

  it('sets up an authenticator app when a role requires one, and shows the recovery codes once', async () => {
    network.use(
      http.post('/api/auth/login', () => HttpResponse.json(step([], true))),
      http.post('/api/auth/login/authenticator', () =>
        HttpResponse.json({
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
        }),
      ),
      http.post('/api/auth/login/second-factor', () =>
        HttpResponse.json({ ...session, recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'] }),
      ),
    );
    const { router, store } = renderApp('/login');
    await typePassword();
    const form = await screen.findByRole('form', { name: 'Second step' });
    expect(await within(form).findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    expect(within(form).getByText('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText(/Code/), '123456');
    await userEvent.click(within(form).getByRole('button', { name: 'Verify' }));

    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['aaaaa-bbbbb', 'ccccc-ddddd']);
    // Not signed in until the codes are put away: leaving the page would lose them.
    expect(store.getState().auth.accessToken).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.user?.username).toBe('ada');
  });

  it('takes the step Google sign-in sent back in the page’s fragment', async () => {
    renderApp(
      `/Login#challenge=from-google&methods=totp,passkey&enrol=false&expiresAt=${encodeURIComponent(new Date(Date.now() + 300_000).toISOString())}`,
    );
    const form = await screen.findByRole('form', { name: 'Second step' });
    expect(within(form).getByRole('button', { name: 'Use a passkey' })).toBeInTheDocument();
  });
});
