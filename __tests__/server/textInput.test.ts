import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifySchema, HTTPMethods } from 'fastify';
import { z } from 'zod';
import { messages } from '@common/messages';
import { apiErrorSchema } from '@common/schemas/apiError';
import { queryRows } from '@server/db/client';
import { bearer, login } from './helpers/auth';
import { type TestApp, startTestApp } from './helpers/testApp';
import { testDbKinds } from './helpers/testDatabase';

/** Refused in every text. */
const CONTROL = ['\u0000', '\u0001', '\u001B', '\u007F', '\u0085', '\u009F'];
/** Refused in single-line texts and names; kept in multi-line ones. */
const LINE_CONTROL = ['\t', '\n', '\r'];
/** Refused in names only. */
const INVISIBLE = ['\u200B', '\u200D', '\u200F', '\u202E', '\u2060', '\u2067', '\uFEFF'];

type TextKind = 'single' | 'multi' | 'name';
type Part = 'body' | 'querystring' | 'params';

/**
 * A text field of a request: where it is (`body.fields.0.name`), and its kind. `key` means
 * the keys of the record at that place (a bad key is reported against the record).
 */
interface TextField {
  at: string;
  kind: TextKind;
  key?: true;
}

interface Endpoint {
  method: HTTPMethods;
  /** With `:name` placeholders filled from `params`. */
  path: string;
  /** A value `$name` (here or in `body`) stands for the fixture of that name (an id made before the tests). */
  params?: Record<string, string>;
  querystring?: Record<string, string>;
  body?: Record<string, unknown>;
  fields: TextField[];
}

const bad = (chars: string[], kind: TextKind) =>
  kind === 'multi' ? chars : [...chars, ...LINE_CONTROL];

/** `value` with `char` inside it, everything else valid. */
const spoil = (value: string, char: string) =>
  value.length > 1 ? `${value.slice(0, 1)}${char}${value.slice(1)}` : `${value}${char}`;

function withText(endpoint: Endpoint, field: TextField, char: string): Endpoint {
  const copy = structuredClone(endpoint);
  const [part, ...path] = field.at.split('.') as [Part, ...string[]];
  let holder = copy[part] as Record<string, unknown>;
  for (const step of path.slice(0, -1)) holder = holder[step] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (field.key) {
    const record = holder[last] as Record<string, string>;
    const [key, value] = Object.entries(record)[0]!;
    holder[last] = { [spoil(key, char)]: value };
  } else {
    holder[last] = spoil(holder[last] as string, char);
  }
  return copy;
}

const BOOK = { title: 'Dune', author: 'Frank Herbert', isbn: '9780306406157' };
const USER = { username: 'someone', email: 'someone@example.com' };
const ENTITY = {
  name: 'Car',
  description: 'Cars',
  category: 'Vehicles',
  fields: [{ name: 'make', label: 'Make' }],
};

const VIEW = { grid: 'users', name: 'Mine', query: 'q=a' };
const viewFields: TextField[] = [
  { at: 'body.grid', kind: 'single' },
  { at: 'body.name', kind: 'name' },
  { at: 'body.query', kind: 'single' },
];

/** Every endpoint that takes text, with a valid request and its text fields. */
const entityFields: TextField[] = [
  { at: 'body.name', kind: 'name' },
  { at: 'body.description', kind: 'multi' },
  { at: 'body.category', kind: 'single' },
  { at: 'body.fields.0.name', kind: 'name' },
  { at: 'body.fields.0.label', kind: 'single' },
];
const recordFields: TextField[] = [
  { at: 'params.entityName', kind: 'name' },
  { at: 'body.fields.make', kind: 'multi' },
  { at: 'body.fields', kind: 'name', key: true },
];
const record = { entityName: 'Car', id: '$recordId' };
/** A passkey's answer as the browser sends it (its texts are checked before it is verified). */
const CREDENTIAL = {
  id: 'credential-id',
  rawId: 'credential-id',
  type: 'public-key',
  response: { clientDataJSON: 'client-data' },
  clientExtensionResults: {},
};
const credentialFields: TextField[] = [
  { at: 'body.credential.id', kind: 'single' },
  { at: 'body.credential.rawId', kind: 'single' },
  { at: 'body.credential.response.clientDataJSON', kind: 'single' },
];
const endpoints: Endpoint[] = [
  {
    method: 'POST',
    path: '/api/auth/login',
    body: { username: 'viewer', password: 'viewer123' },
    fields: [
      { at: 'body.username', kind: 'single' },
      { at: 'body.password', kind: 'single' },
    ],
  },
  {
    method: 'POST',
    path: '/api/auth/register',
    body: { email: 'new@example.com', password: 'a-good-password' },
    fields: [
      { at: 'body.email', kind: 'single' },
      { at: 'body.password', kind: 'single' },
    ],
  },
  {
    method: 'POST',
    path: '/api/auth/login/second-factor',
    body: { challenge: 'a-challenge', code: '123456' },
    fields: [
      { at: 'body.challenge', kind: 'single' },
      { at: 'body.code', kind: 'single' },
    ],
  },
  ...['login/authenticator', 'passkey/options'].map((action): Endpoint => ({
    method: 'POST',
    path: `/api/auth/${action}`,
    body: { challenge: 'a-challenge' },
    fields: [{ at: 'body.challenge', kind: 'single' }],
  })),
  {
    method: 'POST',
    path: '/api/auth/passkey',
    body: { challenge: 'a-challenge', credential: CREDENTIAL },
    fields: [{ at: 'body.challenge', kind: 'single' }, ...credentialFields],
  },
  ...['confirm', 'disable', 'recovery-codes'].map((action): Endpoint => ({
    method: 'POST',
    path: `/api/auth/authenticator/${action}`,
    body: { code: '123456' },
    fields: [{ at: 'body.code', kind: 'single' }],
  })),
  {
    method: 'POST',
    path: '/api/auth/passkeys',
    body: { name: 'My key', credential: CREDENTIAL },
    fields: [{ at: 'body.name', kind: 'name' }, ...credentialFields],
  },
  {
    method: 'POST',
    path: '/api/auth/access-tokens',
    body: {
      name: 'Script',
      expiresInDays: 30,
      routes: [{ routeVerb: 'GET', routePath: '/api/books' }],
    },
    fields: [
      { at: 'body.name', kind: 'name' },
      { at: 'body.routes.0.routeVerb', kind: 'single' },
      { at: 'body.routes.0.routePath', kind: 'single' },
    ],
  },
  ...['refresh-token', 'logout'].map((action): Endpoint => ({
    method: 'POST',
    path: `/api/auth/${action}`,
    body: { refreshToken: 'a-refresh-token' },
    fields: [{ at: 'body.refreshToken', kind: 'single' }],
  })),
  {
    method: 'GET',
    path: '/api/users/identify',
    querystring: { token: 'a-token' },
    fields: [{ at: 'querystring.token', kind: 'single' }],
  },
  {
    method: 'GET',
    path: '/api/books/search-book',
    querystring: { title: 'Dune' },
    fields: [{ at: 'querystring.title', kind: 'single' }],
  },
  ...['/api/audit', '/api/audit/export'].map((path): Endpoint => ({
    method: 'GET',
    path,
    querystring: { actor: 'admin', action: 'book.create' },
    fields: [
      { at: 'querystring.actor', kind: 'single' },
      { at: 'querystring.action', kind: 'single' },
    ],
  })),
  ...[
    { method: 'POST' as const, path: '/api/books/add' },
    { method: 'PUT' as const, path: '/api/books/:id', params: { id: '$bookId' } },
  ].map((route): Endpoint => ({
    ...route,
    body: BOOK,
    fields: [
      { at: 'body.title', kind: 'single' },
      { at: 'body.author', kind: 'single' },
      { at: 'body.isbn', kind: 'single' },
    ],
  })),
  {
    method: 'POST',
    path: '/api/users',
    body: { username: 'newbie', email: 'newbie@example.com', password: 'a-good-password' },
    fields: [
      { at: 'body.username', kind: 'name' },
      { at: 'body.email', kind: 'single' },
      { at: 'body.password', kind: 'single' },
    ],
  },
  {
    method: 'PUT',
    path: '/api/users/:id',
    params: { id: '$userId' },
    body: USER,
    fields: [
      { at: 'body.username', kind: 'name' },
      { at: 'body.email', kind: 'single' },
    ],
  },
  {
    method: 'PUT',
    path: '/api/users/:id/password',
    params: { id: '$userId' },
    body: { password: 'a-new-password' },
    fields: [{ at: 'body.password', kind: 'single' }],
  },
  {
    method: 'POST',
    path: '/api/roles',
    body: { name: 'newrole' },
    fields: [{ at: 'body.name', kind: 'name' }],
  },
  {
    method: 'PUT',
    path: '/api/routes/:id',
    params: { id: '$routeId' },
    body: { allowedRoles: ['admin'] },
    fields: [{ at: 'body.allowedRoles.0', kind: 'name' }],
  },
  {
    method: 'POST',
    path: '/api/entities',
    body: { ...ENTITY, name: 'Boat' },
    fields: entityFields,
  },
  {
    method: 'PUT',
    path: '/api/entities/:id',
    params: { id: '$entityId' },
    body: ENTITY,
    fields: entityFields,
  },
  {
    method: 'PUT',
    path: '/api/entities/:id/policies',
    params: { id: '$entityId' },
    body: {
      policies: [
        {
          role: 'viewer',
          read: { match: 'all', clauses: [{ field: 'make', op: 'eq', value: 'Saab' }] },
          fields: { make: 'readOnly' },
        },
      ],
    },
    fields: [
      { at: 'body.policies.0.role', kind: 'name' },
      { at: 'body.policies.0.read.clauses.0.field', kind: 'name' },
      { at: 'body.policies.0.read.clauses.0.value', kind: 'multi' },
      { at: 'body.policies.0.fields', kind: 'name', key: true },
    ],
  },
  {
    method: 'POST',
    path: '/api/auth/preview',
    body: { role: 'viewer' },
    fields: [{ at: 'body.role', kind: 'name' }],
  },
  {
    method: 'GET',
    path: '/api/entities/:idOrName',
    params: { idOrName: 'Car' },
    fields: [{ at: 'params.idOrName', kind: 'name' }],
  },
  {
    method: 'GET',
    path: '/api/entity-records/:entityName',
    params: { entityName: 'Car' },
    fields: [{ at: 'params.entityName', kind: 'name' }],
  },
  {
    method: 'POST',
    path: '/api/entity-records/:entityName',
    params: { entityName: 'Car' },
    body: { entity_name: 'Car', fields: { make: 'Volvo' } },
    fields: [...recordFields, { at: 'body.entity_name', kind: 'name' }],
  },
  {
    method: 'PUT',
    path: '/api/entity-records/:entityName/:id',
    params: record,
    body: { fields: { make: 'Volvo' } },
    fields: recordFields,
  },
  ...['/api/entity-records/:entityName/:id', '/api/entity-records/:entityName/:id/versions'].map(
    (path): Endpoint => ({
      method: path.endsWith('versions') ? 'GET' : 'DELETE',
      path,
      params: record,
      fields: [{ at: 'params.entityName', kind: 'name' }],
    }),
  ),
  {
    method: 'POST',
    path: '/api/events/presence',
    body: { resource: 'entity-records', id: randomUUID(), entityName: 'Car', editing: true },
    fields: [{ at: 'body.entityName', kind: 'name' }],
  },
  {
    method: 'GET',
    path: '/api/LIMS/jobs',
    querystring: { filter: 'pass' },
    fields: [{ at: 'querystring.filter', kind: 'single' }],
  },
  {
    method: 'GET',
    path: '/api/LIMS/jobs/export',
    querystring: { filter: 'pass', columns: 'status' },
    fields: [
      { at: 'querystring.filter', kind: 'single' },
      { at: 'querystring.columns', kind: 'single' },
    ],
  },
  ...['/api/users', '/api/roles', '/api/books'].map((list): Endpoint => ({
    method: 'GET',
    path: `${list}/export`,
    querystring: { q: 'a', columns: '_id' },
    fields: [
      { at: 'querystring.q', kind: 'single' },
      { at: 'querystring.columns', kind: 'single' },
    ],
  })),
  {
    method: 'GET',
    path: '/api/books',
    querystring: { q: 'dune' },
    fields: [{ at: 'querystring.q', kind: 'single' }],
  },
  {
    method: 'GET',
    path: '/api/entity-records/:entityName/export',
    params: { entityName: 'Car' },
    querystring: { q: 'volvo', columns: '_id' },
    fields: [
      { at: 'params.entityName', kind: 'name' },
      { at: 'querystring.q', kind: 'single' },
      { at: 'querystring.columns', kind: 'single' },
    ],
  },
  {
    method: 'POST',
    path: '/api/entity-records/:entityName/bulk-update',
    params: { entityName: 'Car' },
    body: { selection: { matching: { q: 'volvo' } }, fields: { make: 'Volvo' } },
    fields: [...recordFields, { at: 'body.selection.matching.q', kind: 'single' }],
  },
  {
    method: 'POST',
    path: '/api/entity-records/:entityName/bulk-delete',
    params: { entityName: 'Car' },
    body: { selection: { matching: { q: 'no-such-car' } } },
    fields: [
      { at: 'params.entityName', kind: 'name' },
      { at: 'body.selection.matching.q', kind: 'single' },
    ],
  },
  {
    method: 'POST',
    path: '/api/entity-records/:entityName/bulk-restore',
    params: { entityName: 'Car' },
    body: { ids: ['00000000-0000-4000-8000-000000000000'] },
    fields: [{ at: 'params.entityName', kind: 'name' }],
  },
  {
    method: 'POST',
    path: '/api/entity-records/:entityName/import',
    params: { entityName: 'Car' },
    querystring: { columns: 'make' },
    fields: [
      { at: 'params.entityName', kind: 'name' },
      { at: 'querystring.columns', kind: 'single' },
    ],
  },
  {
    method: 'POST',
    path: '/api/users/import',
    querystring: { columns: 'username' },
    fields: [{ at: 'querystring.columns', kind: 'single' }],
  },
  // Ids only: listed so that the coverage check knows them.
  { method: 'POST', path: '/api/users/bulk-delete', body: { ids: [] }, fields: [] },
  { method: 'POST', path: '/api/users/bulk-restore', body: { ids: [] }, fields: [] },
  // A language from a fixed list, like the ids.
  { method: 'PUT', path: '/api/auth/preferences', body: { locale: 'fr' }, fields: [] },
  {
    method: 'GET',
    path: '/api/views',
    querystring: { grid: 'users' },
    fields: [{ at: 'querystring.grid', kind: 'single' }],
  },
  {
    method: 'POST',
    path: '/api/views',
    body: VIEW,
    fields: viewFields,
  },
  {
    method: 'PUT',
    path: '/api/views/:id',
    params: { id: '$viewId' },
    body: { name: 'Renamed', query: 'q=b' },
    fields: viewFields.filter((field) => field.at !== 'body.grid'),
  },
  {
    method: 'POST',
    path: '/api/role-views',
    body: { ...VIEW, roleId: '$roleId' },
    fields: viewFields,
  },
  {
    method: 'PUT',
    path: '/api/role-views/:id',
    params: { id: '$roleViewId' },
    body: { name: 'Renamed', query: 'q=b' },
    fields: viewFields.filter((field) => field.at !== 'body.grid'),
  },
  {
    method: 'POST',
    path: '/api/auth/download-link',
    body: { path: '/api/books/export?q=dune' },
    fields: [{ at: 'body.path', kind: 'single' }],
  },
];

/** Whether a request part's schema takes a string anywhere (its input, before coercion). */
const takesText = (schema: unknown) =>
  schema !== undefined &&
  /"type":(\[[^\]]*)?"string"/.test(
    JSON.stringify(z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' })),
  );

/** One case per endpoint and text field. */
const cases = endpoints.flatMap((endpoint) =>
  endpoint.fields.map((field) => ({
    name: `${endpoint.method} ${endpoint.path} ${field.at}`,
    endpoint,
    field,
  })),
);

describe.each(testDbKinds)('text input on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  /** The ids `$name` params stand for, made in beforeAll. */
  const fixtures: Record<string, string> = {};

  /** A fingerprint of every table's rows. */
  const snapshot = async () => {
    const tables = await queryRows<{ name: string }>(
      t.database.db,
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    const prints: string[] = [];
    for (const { name } of tables) {
      const [row] = await queryRows<{ print: string | null }>(
        t.database.db,
        sql`select md5(string_agg(r::text, '|' order by r::text)) as print from ${sql.identifier(name)} r`,
      );
      prints.push(`${name}:${row?.print}`);
    }
    return prints;
  };

  const send = (endpoint: Endpoint) =>
    t.app.inject({
      method: endpoint.method,
      url: endpoint.path.replace(/:(\w+)/g, (_m, name: string) =>
        encodeURIComponent(
          endpoint.params![name]!.replace(/^\$(\w+)$/, (_id, key: string) => fixtures[key]!),
        ),
      ),
      query: endpoint.querystring,
      // A body's `$name` values stand for fixtures too.
      payload:
        endpoint.body &&
        JSON.parse(
          JSON.stringify(endpoint.body).replace(/"\$(\w+)"/g, (_m, key: string) =>
            JSON.stringify(fixtures[key]),
          ),
        ),
      headers: admin,
    });

  /** Every route the server registered, with its schema. */
  const registered: { method: HTTPMethods; url: string; schema?: FastifySchema }[] = [];

  beforeAll(async () => {
    // Every refused sign-in counts against the limit; this file makes many.
    t = await startTestApp(
      kind,
      { AUTH_RATE_LIMIT: '100000' },
      {
        onRoute: ({ method, url, schema }) => {
          // A HEAD route is the GET route's twin, tested through the GET.
          for (const verb of [method].flat())
            if (verb !== 'HEAD') registered.push({ method: verb, url, schema });
        },
      },
    );
    admin = bearer((await login(t.app, 'admin')).jwt);
    const post = async (url: string, payload: object) =>
      (await t.app.inject({ method: 'POST', url, payload, headers: admin })).json();
    const get = async (url: string) => (await t.app.inject({ url, headers: admin })).json();

    fixtures.bookId = (await post('/api/books/add', BOOK))._id;
    fixtures.userId = (await post('/api/users', { ...USER, password: 'a-good-password' }))._id;
    fixtures.entityId = (await post('/api/entities', ENTITY))._id;
    fixtures.recordId = (await post('/api/entity-records/Car', { fields: { make: 'Saab' } }))._id;
    fixtures.routeId = (await get('/api/routes'))[0]._id;
    fixtures.viewId = (await post('/api/views', VIEW))._id;
    fixtures.roleId = (await get('/api/roles'))[0]._id;
    fixtures.roleViewId = (await post('/api/role-views', { ...VIEW, roleId: fixtures.roleId }))._id;
  });
  afterAll(() => t.close());

  it('covers every route whose body or query string takes text', () => {
    const listed = new Set(endpoints.map((e) => `${e.method} ${e.path}`));
    const withText = registered
      .filter(({ schema }) => takesText(schema?.body) || takesText(schema?.querystring))
      .map(({ method, url }) => `${method} ${url}`);
    // The check itself sees the routes it must: these take text in their body or query.
    expect(withText).toEqual(
      expect.arrayContaining(['POST /api/auth/login', 'GET /api/LIMS/jobs']),
    );
    expect(withText.filter((route) => !listed.has(route))).toEqual([]);
  });

  it.each(cases)(
    '$name: refuses control characters (in names also invisible ones), changing nothing',
    async ({ endpoint, field }) => {
      const before = await snapshot();
      const refusals: [string, string][] = [
        ...bad(CONTROL, field.kind).map((char): [string, string] => [
          char,
          messages.validation.controlCharacters,
        ]),
        ...(field.kind === 'name' ? INVISIBLE : []).map((char): [string, string] => [
          char,
          messages.validation.invisibleCharacters,
        ]),
      ];
      for (const [char, message] of refusals) {
        const res = await send(withText(endpoint, field, char));
        // Names the character on failure, out of the many each case sends.
        const sent = `U+${char.codePointAt(0)!.toString(16).padStart(4, '0')}`;
        expect({ sent, status: res.statusCode }).toEqual({ sent, status: 400 });
        const body = apiErrorSchema.parse(res.json());
        expect(body.code).toBe('VALIDATION_FAILED');
        expect(body.fields).toContainEqual({
          field: field.at,
          message: field.key ? `has a key that ${message}` : message,
        });
      }
      expect(await snapshot()).toEqual(before);
    },
  );

  it('keeps tabs and line breaks in multi-line texts', async () => {
    const description = 'Boats\tand ships:\r\nsail and steam';
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/entities',
      headers: admin,
      payload: { ...ENTITY, name: 'Ship', description },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().description).toBe(description);
    const value = 'line one\nline\ttwo';
    const record = await t.app.inject({
      method: 'POST',
      url: '/api/entity-records/Car',
      headers: admin,
      payload: { fields: { make: value } },
    });
    expect(record.statusCode).toBe(201);
    const records = (await t.app.inject({ url: '/api/entity-records/Car', headers: admin })).json();
    expect(records.map((r: { fields: { make: string } }) => r.fields.make)).toContain(value);
  });

  it('keeps zero-width and direction characters in texts that are not names', async () => {
    // An emoji joined by U+200D, and Hebrew with a right-to-left mark.
    const title = 'Coding \u{1F469}\u200D\u{1F4BB} \u05E9\u05DC\u05D5\u05DD\u200F';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/books/add',
      headers: admin,
      payload: { title },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().title).toBe(title);
  });
});
