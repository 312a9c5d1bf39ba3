import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { applyLocale } from '@/i18n/i18n';
import { appStarted } from '@/lib/store';
import { setupNetwork } from '../helpers/network';
import { fakeToken, renderApp, signedInAs } from '../helpers/render';

const network = setupNetwork();
afterEach(() => applyLocale('en'));

const signIn = async () => {
  network.use(
    http.post('/api/auth/login', () =>
      HttpResponse.json({
        jwt: fakeToken({ sub: 'id-ada', username: 'ada', roles: [], exp: Date.now() / 1000 + 300 }),
        refreshToken: 'r1',
      }),
    ),
  );
  await userEvent.type(screen.getByLabelText(/Nom d'utilisateur|Username/), 'ada');
  await userEvent.type(screen.getByLabelText(/Mot de passe|Password/), 'secret-password');
  await userEvent.click(screen.getByRole('button', { name: /^(Se connecter|Login)$/ }));
};

describe('the language', () => {
  it('switches from the navigation: texts, MUI’s own, <html lang>, kept in this browser', async () => {
    const { store } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Hello, visitor' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Français' }));

    expect(await screen.findByRole('heading', { name: 'Bonjour, visiteur' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Accueil' })).toBeVisible();
    expect(document.documentElement.lang).toBe('fr');
    expect(window.localStorage.getItem('locale')).toBe('fr');
    expect(store.getState().ui.locale).toBe('fr');
    // Signed out: nothing to keep on the server yet.
    expect(network.calls('PUT /api/auth/preferences')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'Hello, visitor' })).toBeVisible();
    expect(document.documentElement.lang).toBe('en');
  });

  it('is kept for the account when a signed-in user switches', async () => {
    renderApp('/', signedInAs('ada'));
    await userEvent.click(await screen.findByRole('button', { name: 'Français' }));
    await screen.findByRole('heading', { name: 'Bonjour, ada' });
    await waitFor(() => expect(network.calls('PUT /api/auth/preferences')).toHaveLength(1));
    expect(await network.calls('PUT /api/auth/preferences')[0]!.json()).toEqual({ locale: 'fr' });
  });

  it('keeps the last of two quick choices on the server, their saves one after the other', async () => {
    // The server answers the first save only when told: a second save sent meanwhile would be
    // kept first, then overwritten by the first.
    let answerFirst!: () => void;
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    let kept: unknown;
    network.use(
      http.put('/api/auth/preferences', async ({ request }) => {
        const body = (await request.json()) as { locale: string };
        if (network.calls('PUT /api/auth/preferences').length === 1) await firstAnswered;
        kept = body.locale;
        return HttpResponse.json(body);
      }),
    );
    renderApp('/', signedInAs('ada'));
    await userEvent.click(await screen.findByRole('button', { name: 'Français' }));
    await userEvent.click(await screen.findByRole('button', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'Hello, ada' })).toBeVisible();
    answerFirst();
    await waitFor(() => expect(network.calls('PUT /api/auth/preferences')).toHaveLength(2));
    await waitFor(() => expect(kept).toBe('en'));
  });

  it('follows a choice made in another tab of this browser, without saving it again', async () => {
    const { store } = renderApp('/', signedInAs('ada'));
    store.dispatch(appStarted());
    expect(await screen.findByRole('heading', { name: 'Hello, ada' })).toBeVisible();
    // The other tab keeps its choice in this browser's storage, which tells every other tab.
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'locale', newValue: 'fr' }));
    });
    expect(await screen.findByRole('heading', { name: 'Bonjour, ada' })).toBeVisible();
    expect(document.documentElement.lang).toBe('fr');
    expect(network.calls('PUT /api/auth/preferences')).toHaveLength(0);
  });

  it('says a form’s checks shown again in the new language', async () => {
    renderApp('/role', signedInAs('ada', ['admin']));
    await userEvent.type(await screen.findByLabelText(/Name/), 'has space');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    expect(await screen.findByText('may only hold letters, digits, _ and -')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Français' }));
    expect(
      await screen.findByText('ne peut contenir que des lettres, des chiffres, _ et -'),
    ).toBeVisible();
    expect(screen.queryByText('may only hold letters, digits, _ and -')).toBeNull();
  });

  it('follows the account’s language when a page starts signed in', async () => {
    // Changed in another browser since this one last saw it.
    network.use(http.get('/api/auth/preferences', () => HttpResponse.json({ locale: 'fr' })));
    const { store } = renderApp('/', signedInAs('ada'));
    store.dispatch(appStarted());
    expect(await screen.findByRole('heading', { name: 'Bonjour, ada' })).toBeVisible();
    expect(window.localStorage.getItem('locale')).toBe('fr');
    expect(network.calls('PUT /api/auth/preferences')).toHaveLength(0);
  });

  it('follows the account’s language at sign-in', async () => {
    network.use(http.get('/api/auth/preferences', () => HttpResponse.json({ locale: 'fr' })));
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    await signIn();
    expect(await screen.findByRole('heading', { name: 'Bonjour, ada' })).toBeVisible();
    expect(network.calls('PUT /api/auth/preferences')).toHaveLength(0);
  });

  it('keeps for the account a language chosen on the sign-in page', async () => {
    network.use(http.get('/api/auth/preferences', () => HttpResponse.json({ locale: 'en' })));
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Français' }));
    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeVisible();
    await signIn();
    expect(await screen.findByRole('heading', { name: 'Bonjour, ada' })).toBeVisible();
    await waitFor(() => expect(network.calls('PUT /api/auth/preferences')).toHaveLength(1));
    expect(await network.calls('PUT /api/auth/preferences')[0]!.json()).toEqual({ locale: 'fr' });
    expect(network.calls('GET /api/auth/preferences')).toHaveLength(0);
  });
});
