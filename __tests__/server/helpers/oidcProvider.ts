import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const OIDC_CLIENT = { clientId: 'test-client', clientSecret: 'test-client-secret' };

/**
 * A real OpenID Connect provider on loopback (oidc-provider), standing in for Google.
 * Its development login screen signs in whatever account name is typed, as
 * `<name>@example.com` with a verified email.
 */
export async function startOidcProvider(redirectUri: string) {
  const server: Server = await new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.clientId,
        client_secret: OIDC_CLIENT.clientSecret,
        redirect_uris: [redirectUri],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: `${sub}@example.com`, email_verified: true }),
    }),
    cookies: { keys: ['test-cookie-key'] },
    // Explicit lifetimes keep the provider from printing a notice for each default.
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 600,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 3600,
      Session: 3600,
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Plays the user at the provider, over HTTP with a cookie jar: opens the authorization
 * URL, signs in as `account` on the login form, consents, and answers the URL the
 * provider sends the browser back to (our callback, with code and state).
 */
export async function signInAtProvider(authorizationUrl: string, account: string): Promise<URL> {
  const jar = new Map<string, string>();
  const request = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!, value.join('='));
    }
    return res;
  };

  let url = authorizationUrl;
  let form: Record<string, string> | undefined;
  for (let step = 0; step < 20; step++) {
    const res = await request(url, form);
    form = undefined;
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.pathname.endsWith('/api/auth/google/callback')) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    if (!action) throw new Error(`No form at ${url}: ${res.status} ${html.slice(0, 300)}`);
    form = {};
    for (const [, name, value] of html.matchAll(
      /<input[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?/g,
    )) {
      form[name!] = value ?? '';
    }
    if ('login' in form) Object.assign(form, { login: account, password: 'any' });
    url = new URL(action, url).href;
  }
  throw new Error('The provider did not send the browser back');
}
