import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@common/messages';
import { AppError, notFound } from '@server/lib/errors';
import { errorsPlugin } from '@server/plugins/errors';

/** A bare Fastify app with only the errors plugin and routes that fail in each way. */
async function appWithFailingRoutes() {
  const logged: unknown[] = [];
  const app = Fastify({
    logger: {
      level: 'error',
      stream: { write: (line: string) => logged.push(JSON.parse(line)) },
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorsPlugin);
  app.get('/crash', async () => {
    throw new Error('relation "secret_table" does not exist');
  });
  app.get('/missing', async () => {
    throw notFound('Book');
  });
  app.get('/teapot', async () => {
    throw new AppError(418, 'CONFLICT', 'I am a teapot');
  });
  app.get('/duplicate', async () => {
    const pgError = Object.assign(
      new Error('duplicate key value violates "users_username_unique"'),
      {
        code: '23505',
      },
    );
    throw new Error('Failed query: insert into users', { cause: pgError });
  });
  app.post(
    '/validated',
    { schema: { body: z.object({ name: z.string().min(1), age: z.number().int() }) } },
    async () => ({ ok: true }),
  );
  await app.ready();
  return { app, logged };
}

describe('the errors plugin', () => {
  it('answers an unexpected failure with 500 and a generic message, logging the details', async () => {
    const { app, logged } = await appWithFailingRoutes();
    const res = await app.inject({ method: 'GET', url: '/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: messages.server.internal,
    });
    expect(res.body).not.toContain('secret_table');
    expect(JSON.stringify(logged)).toContain('secret_table');
    await app.close();
  });

  it('answers an AppError with its own status and message', async () => {
    const { app } = await appWithFailingRoutes();
    expect((await app.inject({ url: '/missing' })).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Book not found',
    });
    const teapot = await app.inject({ url: '/teapot' });
    expect(teapot.statusCode).toBe(418);
    expect(teapot.json().message).toBe('I am a teapot');
    await app.close();
  });

  it('turns a unique violation from the database into 409 without its SQL', async () => {
    const { app } = await appWithFailingRoutes();
    const res = await app.inject({ url: '/duplicate' });
    expect(res.statusCode).toBe(409);
    expect(res.body).not.toMatch(/insert into|users_username_unique/);
    await app.close();
  });

  it('answers a validation failure with 400 naming each field', async () => {
    const { app } = await appWithFailingRoutes();
    const res = await app.inject({ method: 'POST', url: '/validated', payload: { name: '' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('Bad Request');
    expect(body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'body.age',
      'body.name',
    ]);
    expect(body.message).toContain('body.name');
    await app.close();
  });
});
