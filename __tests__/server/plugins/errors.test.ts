import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@common/messages';
import { apiErrorSchema } from '@common/schemas/apiError';
import { multiLineText, nameText } from '@common/schemas/text';
import type { Database } from '@server/db/client';
import { entities } from '@server/db/schema/entities';
import { jobs } from '@server/db/schema/jobs';
import { roles } from '@server/db/schema/roles';
import { userRoles, users } from '@server/db/schema/users';
import { AppError, notFound } from '@server/lib/errors';
import { logSerializers } from '@server/lib/logSerializers';
import { errorsPlugin } from '@server/plugins/errors';
import { captureLogs } from '../helpers/logs';
import { openTestDatabase, testDbKinds } from '../helpers/testDatabase';

/** A bare Fastify app with only the errors plugin, the app's log serializers, and `routes`. */
async function appWith(routes: (app: ReturnType<typeof bareApp>) => void) {
  const logs = captureLogs();
  const app = bareApp(logs.stream);
  await app.register(errorsPlugin);
  routes(app);
  await app.ready();
  return { app, logs };
}

function bareApp(stream: { write(line: string): void }) {
  const app = Fastify({
    logger: { level: 'info', stream, serializers: logSerializers },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

describe('the errors plugin', () => {
  it("answers an unexpected failure with 500 INTERNAL, logging its message and stack only, without the machine's paths", async () => {
    const { app, logs } = await appWith((a) =>
      a.get('/crash', async () => {
        throw new Error('relation "secret_table" does not exist');
      }),
    );
    const res = await app.inject({ method: 'GET', url: '/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL',
      message: messages.server.internal,
    });
    expect(res.body).not.toContain('secret_table');
    const logged = logs.entries().find((entry) => entry.msg === 'Unhandled error');
    expect(logged?.err).toMatchObject({
      type: 'Error',
      message: expect.stringContaining('secret_table'),
      // This test file's frame, told from the working directory.
      stack: expect.stringContaining('(__tests__/server/plugins/errors.test.ts:'),
    });
    expect(logs.lines.join('')).not.toContain(process.cwd());
    await app.close();
  });

  it('logs an expected refusal of any status, and a database out of reach, as one line without a stack', async () => {
    const { app, logs } = await appWith((a) => {
      a.get('/unconfigured', async () => {
        throw new AppError(503, 'SIGN_IN_PROVIDER_NOT_CONFIGURED', 'Not configured');
      });
      a.get('/database-away', async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
          code: 'ECONNREFUSED',
        });
      });
    });
    expect((await app.inject({ url: '/unconfigured' })).statusCode).toBe(503);
    expect((await app.inject({ url: '/database-away' })).json()).toMatchObject({
      code: 'DATABASE_UNAVAILABLE',
    });
    const refusals = logs.entries().filter((entry) => String(entry.msg).startsWith('Answered 503'));
    expect(refusals.map((entry) => entry.err)).toEqual([
      expect.objectContaining({
        code: 'SIGN_IN_PROVIDER_NOT_CONFIGURED',
        statusCode: 503,
        stack: '',
      }),
      // What could not be reached is told, for whoever runs the server.
      expect.objectContaining({
        code: 'DATABASE_UNAVAILABLE',
        statusCode: 503,
        message: 'connect ECONNREFUSED 127.0.0.1:5432',
        stack: '',
      }),
    ]);
    expect(logs.lines.join('')).not.toMatch(/errors\.test/);
    await app.close();
  });

  it('answers an AppError with its own status, code and message', async () => {
    const { app } = await appWith((a) => {
      a.get('/missing', async () => {
        throw notFound('Book');
      });
      a.get('/teapot', async () => {
        throw new AppError(418, 'CONFLICT', 'I am a teapot', { headers: { 'x-tea': 'earl grey' } });
      });
    });
    expect((await app.inject({ url: '/missing' })).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'NOT_FOUND',
      message: 'Book not found',
    });
    const teapot = await app.inject({ url: '/teapot' });
    expect(teapot.statusCode).toBe(418);
    expect(teapot.headers['x-tea']).toBe('earl grey');
    expect(teapot.json()).toMatchObject({ code: 'CONFLICT', message: 'I am a teapot' });
    await app.close();
  });

  it('answers a validation failure with 400 VALIDATION_FAILED naming each field', async () => {
    const { app } = await appWith((a) =>
      a.post(
        '/validated',
        { schema: { body: z.object({ name: z.string().min(1), age: z.number().int() }) } },
        async () => ({ ok: true }),
      ),
    );
    const res = await app.inject({ method: 'POST', url: '/validated', payload: { name: '' } });
    expect(res.statusCode).toBe(400);
    const body = apiErrorSchema.parse(res.json());
    expect(body).toMatchObject({ error: 'Bad Request', code: 'VALIDATION_FAILED' });
    expect(body.fields!.map((f) => f.field).sort()).toEqual(['body.age', 'body.name']);
    expect(body.message).toContain('body.name');
    await app.close();
  });

  it('names the record, not the refused key, when a record key is invalid', async () => {
    const { app } = await appWith((a) =>
      a.post(
        '/records',
        { schema: { body: z.object({ fields: z.record(nameText(), multiLineText()) }) } },
        async () => ({ ok: true }),
      ),
    );
    const res = await app.inject({
      method: 'POST',
      url: '/records',
      payload: { fields: { 'colour\u0000secret-key': 'red' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      {
        field: 'body.fields',
        message: `has a key that ${messages.validation.controlCharacters}`,
      },
    ]);
    expect(res.body).not.toContain('secret-key');
    await app.close();
  });

  it('logs a refused request by its code and status, not its message', async () => {
    const { app, logs } = await appWith((a) =>
      a.get('/refused', async () => {
        throw new AppError(400, 'VALIDATION_FAILED', 'Unknown roles: secret-role-name');
      }),
    );
    await app.inject({ url: '/refused' });
    const logged = logs.entries().find((entry) => entry.msg === 'Answered 400 VALIDATION_FAILED');
    expect(logged?.err).toMatchObject({ code: 'VALIDATION_FAILED', statusCode: 400 });
    expect(logs.lines.join('')).not.toContain('secret-role-name');
    await app.close();
  });

  it('logs requests by their path, without the query string', async () => {
    const { app, logs } = await appWith((a) => a.get('/search', async () => ({ ok: true })));
    await app.inject({ url: '/search?title=secret-title&token=secret-token' });
    const incoming = logs.entries().find((entry) => entry.msg === 'incoming request');
    expect(incoming?.req).toMatchObject({ method: 'GET', path: '/search' });
    expect(logs.lines.join('')).not.toMatch(/secret-title|secret-token/);
    await app.close();
  });
});

describe.each(testDbKinds)('database errors on %s', (kind) => {
  let database: Database;
  const entityId = randomUUID();
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const { db } = database;
    await db.insert(users).values({ username: 'taken', email: 'taken@example.com' });
    await db.insert(roles).values({ name: 'taken' });
    await db.insert(entities).values({ id: entityId, name: 'Taken', category: 'c', fields: [] });
    await db
      .insert(jobs)
      .values({ friendlyNumber: 'J-1', status: 's', conclusion: 'c', description: 'd' });
  });
  afterAll(() => database.close());

  // Each write carries a value that must not reach the client or the log.
  const SECRET = 'secret-hash-$argon2id$v=19';
  const writes: [string, number, string, () => Promise<unknown>][] = [
    [
      'a taken username',
      409,
      'USERNAME_TAKEN',
      () => database.db.insert(users).values({ username: 'taken', passwordHash: SECRET }),
    ],
    [
      'a taken email, in other capitals',
      409,
      'EMAIL_TAKEN',
      () =>
        database.db
          .insert(users)
          .values({ username: 'other', email: 'TAKEN@example.com', passwordHash: SECRET }),
    ],
    [
      'a taken role name',
      409,
      'NAME_TAKEN',
      () => database.db.insert(roles).values({ name: 'taken', id: randomUUID() }),
    ],
    [
      'a taken entity name',
      409,
      'NAME_TAKEN',
      () => database.db.insert(entities).values({ name: 'Taken', category: SECRET, fields: [] }),
    ],
    [
      'another unique constraint',
      409,
      'CONFLICT',
      () =>
        database.db
          .insert(jobs)
          .values({ friendlyNumber: 'J-1', status: SECRET, conclusion: 'c', description: 'd' }),
    ],
    [
      'a foreign key to nothing',
      409,
      'CONFLICT',
      () => database.db.insert(userRoles).values({ userId: randomUUID(), roleId: randomUUID() }),
    ],
    [
      'a value the column refuses',
      500,
      'INTERNAL',
      () => database.db.insert(users).values({ username: `${SECRET}\u0000`, passwordHash: SECRET }),
    ],
  ];

  it.each(writes)(
    'answers %s with %d %s, without SQL or values in the answer or the log',
    async (_what, status, code, write) => {
      const { app, logs } = await appWith((a) =>
        a.post('/write', async () => {
          await write();
          return { written: true };
        }),
      );
      const res = await app.inject({ method: 'POST', url: '/write' });
      expect(res.statusCode).toBe(status);
      expect(apiErrorSchema.parse(res.json()).code).toBe(code);
      const logged = logs.entries().find((entry) => entry.err !== undefined);
      expect(logged?.err).toMatchObject({
        type: 'DrizzleQueryError',
        code: expect.stringMatching(/^[0-9A-Z]{5}$/),
      });
      for (const text of [res.body, logs.lines.join('\n')]) {
        expect(text).not.toContain('secret-hash');
        expect(text).not.toMatch(/insert into|Failed query|params:/i);
      }
      await app.close();
    },
  );
});
