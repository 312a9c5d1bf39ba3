import { API_ROUTES } from '@common/apiRoutes';
import { routes } from '@server/db/schema/routes';
import { type TestApp, startTestApp } from '../helpers/testApp';

/** `VERB /path`: one line per route, so a failure names the routes that differ. */
const keyOf = (verb: string, path: string) => `${verb} ${path}`;

describe('the routes table of common/apiRoutes', () => {
  const listed = API_ROUTES.map(([verb, path]) => keyOf(verb, path));
  let t: TestApp;
  /** The routes table the server built from its route registry at start. */
  let registered: string[];
  beforeAll(async () => {
    // The registry does not depend on the database engine: PGlite is enough.
    t = await startTestApp('pglite');
    const rows = await t.database.db
      .select({ verb: routes.routeVerb, path: routes.routePath })
      .from(routes);
    registered = rows.map(({ verb, path }) => keyOf(verb, path));
  });
  afterAll(() => t.close());

  it('lists every route the server registers as needing a signed-in user', () => {
    expect(registered.filter((key) => !listed.includes(key))).toEqual([]);
  });

  it('lists only routes the server registers, each once', () => {
    expect(listed.filter((key) => !registered.includes(key))).toEqual([]);
    expect(listed.filter((key, i) => listed.indexOf(key) !== i)).toEqual([]);
  });
});
