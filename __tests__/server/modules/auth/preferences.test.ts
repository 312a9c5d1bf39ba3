import { bearer, login, registerUser } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)("a user's preferences (the language), on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { AUTH_RATE_LIMIT: '1000' });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT', headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: '/api/auth/preferences', headers, payload });

  it('starts unset, is kept for the user across sessions, and is theirs alone', async () => {
    const { jwt, email } = await registerUser(t.app); // no role: a language needs none
    expect((await call('GET', bearer(jwt))).json()).toEqual({ locale: null });

    expect((await call('PUT', bearer(jwt), { locale: 'fr' })).json()).toEqual({ locale: 'fr' });
    const elsewhere = bearer((await login(t.app, email, 'a-good-password')).jwt);
    expect((await call('GET', elsewhere)).json()).toEqual({ locale: 'fr' });
    expect((await call('GET', bearer((await login(t.app, 'viewer')).jwt))).json()).toEqual({
      locale: null,
    });

    // Chosen again, then given back to the browser's language.
    await call('PUT', elsewhere, { locale: 'en' });
    expect((await call('GET', bearer(jwt))).json()).toEqual({ locale: 'en' });
    await call('PUT', elsewhere, { locale: null });
    expect((await call('GET', bearer(jwt))).json()).toEqual({ locale: null });
  });

  it('refuses a language the product does not speak, and a caller not signed in', async () => {
    const { jwt } = await registerUser(t.app);
    const refused = await call('PUT', bearer(jwt), { locale: 'de' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await call('GET', bearer(jwt))).json()).toEqual({ locale: null });
    expect((await call('GET', {})).statusCode).toBe(401);
  });
});
