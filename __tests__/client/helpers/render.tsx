import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '@/app/App';
import { routes } from '@/app/router';
import { makeStore, type RootState } from '@/app/store';

/** Renders the real app (store, providers, route table) at `path`, with a fresh store. */
export function renderApp(path: string, preloadedState?: Partial<RootState>) {
  const store = makeStore(preloadedState);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, store, router };
}

/** An unsigned JWT with the given claims: enough for the client, which only decodes. */
export function fakeToken(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`;
}

/** A signed-in state for `username`, with a token valid for five more minutes. */
export function signedInAs(username: string, roles: string[] = []): Partial<RootState> {
  const accessToken = fakeToken({
    sub: `id-${username}`,
    username,
    roles,
    exp: Math.floor(Date.now() / 1000) + 300,
  });
  return {
    auth: {
      accessToken,
      refreshToken: 'refresh-token',
      user: { _id: `id-${username}`, username, email: null, roles },
    },
  };
}
