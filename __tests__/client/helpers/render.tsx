import { render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import {
  type Location,
  MemoryRouter,
  type NavigateFunction,
  useLocation,
  useNavigate,
} from 'react-router-dom';
import { AppProviders } from '@/app/App';
import { AppRoutes } from '@/app/router';
import { makeStore } from '@/app/store';
import type { RootState } from '@/lib/store';

/** Where the test's router is, and a way to move it (as the app's links and code do). */
export interface TestRouter {
  state: { location: Location };
  navigate: NavigateFunction;
}

/** Keeps `router` in step with the router the app renders in. */
function RouterProbe({ router }: { router: TestRouter }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    router.state.location = location;
    router.navigate = navigate;
  }, [router, location, navigate]);
  return null;
}

/** Renders the real app (store, providers, route table) at `path`, with a fresh store. */
export function renderApp(path: string, preloadedState?: Partial<RootState>) {
  const store = makeStore(preloadedState);
  const router = { state: {} } as TestRouter;
  const view = render(
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[path]}>
        <RouterProbe router={router} />
        <AppRoutes />
      </MemoryRouter>
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
