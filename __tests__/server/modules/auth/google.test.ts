import { decodeJwt } from 'jose';
import { messages } from '@common/messages';
import { OIDC_CLIENT, signInAtProvider, startOidcProvider } from '../../helpers/oidcProvider';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

const PUBLIC_URL = 'http://app.test';

describe.each(testDbKinds)('Google sign-in on %s', (kind) => {
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let t: TestApp;
  beforeAll(async () => {
    provider = await startOidcProvider(`${PUBLIC_URL}/api/auth/google/callback`);
    t = await startTestApp(kind, {
      PUBLIC_URL,
      GOOGLE_ISSUER: provider.issuer,
      GOOGLE_CLIENT_ID: OIDC_CLIENT.clientId,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.clientSecret,
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  /** The whole round trip: our URL, the provider's login, our callback. */
  async function signIn(account: string) {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(start.statusCode).toBe(200);
    const callback = await signInAtProvider(start.json().url, account);
    return t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  }

  it('answers the provider URL with PKCE, state and nonce', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    const url = new URL(res.json().url);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: OIDC_CLIENT.clientId,
      redirect_uri: `${PUBLIC_URL}/api/auth/google/callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    for (const param of ['code_challenge', 'state', 'nonce']) {
      expect(url.searchParams.get(param)?.length).toBeGreaterThanOrEqual(32);
    }
  });

  it('signs a new user in with no role and sends them to /google-callback/ with the tokens', async () => {
    const res = await signIn('grace');
    expect(res.statusCode).toBe(302);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const location = new URL(res.headers.location as string, PUBLIC_URL);
    expect(location.pathname).toBe('/google-callback/');
    const token = location.searchParams.get('token')!;
    expect(location.searchParams.get('refreshToken')).toBeTruthy();
    expect(decodeJwt(token)).toMatchObject({
      username: 'grace@example.com',
      email: 'grace@example.com',
      roles: [],
    });

    const identify = await t.app.inject({
      method: 'GET',
      url: '/api/users/identify',
      headers: { 'x-access-token': token },
    });
    expect(identify.json()).toMatchObject({ username: 'grace@example.com', roles: [] });

    // The next visit finds the same user, by the provider's subject.
    const again = new URL((await signIn('grace')).headers.location as string, PUBLIC_URL);
    expect(decodeJwt(again.searchParams.get('token')!).sub).toBe(decodeJwt(token).sub);
  });

  it('sends the browser to /Login when the state is unknown or already spent', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    const callback = await signInAtProvider(start.json().url, 'mallory');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state');
    const res = await t.app.inject({ method: 'GET', url: forged.pathname + forged.search });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/Login');

    const first = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(first.headers.location).toMatch(/^\/google-callback\//);
    const replay = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(replay.headers.location).toBe('/Login');
  });
});

describe('Google sign-in, not configured or unreachable', () => {
  it('answers 503 with a clear message when not configured', async () => {
    const t = await startTestApp('pglite');
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'SIGN_IN_PROVIDER_NOT_CONFIGURED',
      message: messages.server.googleNotConfigured,
    });
    const callback = await t.app.inject({ method: 'GET', url: '/api/auth/google/callback?code=x' });
    expect(callback.headers.location).toBe('/Login');
    await t.close();
  });

  it('answers 502 when the provider cannot be reached', async () => {
    const t = await startTestApp('pglite', {
      GOOGLE_ISSUER: 'http://127.0.0.1:9',
      GOOGLE_CLIENT_ID: 'x',
      GOOGLE_CLIENT_SECRET: 'y',
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      code: 'SIGN_IN_PROVIDER_UNAVAILABLE',
      message: messages.server.googleUnavailable,
    });
    await t.close();
  });
});
