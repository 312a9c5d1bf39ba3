/**
 * `npm run test:fuzz`: the API against its own OpenAPI contract. Starts the built server on
 * a fresh embedded database, signs in as admin, and for every operation of
 * /api/openapi.json sends FUZZ_RUNS requests made by fast-check from the operation's
 * schemas: valid ones (json-schema-faker), near-misses (one value of a valid request
 * replaced by a hostile one) and hostile ones (control characters, huge strings and
 * numbers, wrong types, unicode edge cases, prototype keys, malformed JSON). It fails on
 * any 5xx, on a status the operation does not document, and on an answer outside its
 * documented schema. Seeded (FUZZ_SEED): a failure prints the seed and path that replay it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { generateSync } from 'json-schema-faker';
import { startBookService, volume } from '../__tests__/server/helpers/bookService';
import { OIDC_CLIENT, startOidcProvider } from '../__tests__/server/helpers/oidcProvider';
import { signInThroughApi, startBuiltServer } from '../bench/builtServer';

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const ADMIN_PASSWORD = 'fuzz-admin-password';
/** The server's body limit: fastify's default, 1 MiB. */
const BODY_LIMIT = 1024 * 1024;
/** Whether a fetch failed because the server closed the connection while it was sent. */
const closedOnUs = (error: unknown) =>
  error instanceof TypeError &&
  ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(
    (error.cause as { code?: string } | undefined)?.code ?? '',
  );

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };
interface FuzzRequest {
  path: string;
  query: [string, string][];
  /** JSON text, or undefined for no body. */
  body: string | undefined;
}

/** Values no field expects: each one has found a bug somewhere. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    '\u0000',
    'a\u0000b',
    '\u0007\u001b[31m',
    '\u202e\u200b\ufeff',
    '\ud800',
    'İıßÉ',
    '𝕏'.repeat(500),
    'x'.repeat(70_000),
    '__proto__',
    'constructor',
    "' or 1=1 --",
    '%00%2e%2e%2f',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    -1,
    0,
    1e308,
    -1e308,
    2 ** 53,
    1.5,
    true,
    null,
    [],
    {},
    { __proto__: { admin: true } },
    [[[[[[[[]]]]]]]],
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
);

/** Bodies that are not what any operation reads. */
const hostileBodyText = fc.constantFrom(
  '{',
  '[]',
  'null',
  '"text"',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  JSON.stringify({ a: 'x'.repeat(2_000_000) }),
);

/** A value that fits `schema`, made by json-schema-faker from a seed fast-check chooses. */
const validValue = (schema: Schema) =>
  fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) =>
    generateSync(schema as Parameters<typeof generateSync>[0], {
      seed,
      optionalsProbability: 0.6,
    }),
  );

/**
 * Percent-encodes a path value; a lone surrogate (no UTF-8 for it) goes as the three bytes
 * WTF-8 gives it, which is not UTF-8 at all: what a hostile client can send.
 */
const encodePathValue = (text: string) =>
  [...text]
    .map((character) => {
      if (!/^[\ud800-\udfff]$/u.test(character)) return encodeURIComponent(character);
      const unit = character.charCodeAt(0);
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');

/** A path or query value as text. */
const asText = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

/** Requests for one operation: valid ones, near-misses and hostile ones. */
function requestsFor(
  template: string,
  operation: Operation,
  ids: string[],
): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters ?? [];
  const pathParameters = parameters.filter((p) => p.in === 'path');
  const queryParameters = parameters.filter((p) => p.in === 'query');
  const bodySchema = operation.requestBody?.content['application/json']?.schema;

  const pathValue = (parameter: Parameter) =>
    fc.oneof(
      { weight: 3, arbitrary: validValue(parameter.schema).map(asText) },
      { weight: 3, arbitrary: ids.length ? fc.constantFrom(...ids) : fc.constant('x') },
      { weight: 1, arbitrary: hostileValue.map(asText) },
    );
  const queryValue = (parameter: Parameter) =>
    fc.oneof(
      { weight: 4, arbitrary: validValue(parameter.schema).map(asText) },
      { weight: 1, arbitrary: hostileValue.map(asText) },
    );
  const body: fc.Arbitrary<string | undefined> = !bodySchema
    ? fc.constant(undefined)
    : fc.oneof(
        { weight: 3, arbitrary: validValue(bodySchema).map((value) => JSON.stringify(value)) },
        {
          weight: 3,
          arbitrary: fc
            .tuple(validValue(bodySchema), fc.string({ maxLength: 12 }), hostileValue)
            .map(([value, key, hostile]) => {
              // A near-miss: one existing field (or a new one) gets a hostile value.
              const keys = value && typeof value === 'object' ? Object.keys(value) : [];
              const field = keys.length ? keys[key.length % keys.length]! : key;
              return JSON.stringify({ ...(value as object), [field]: hostile });
            }),
        },
        { weight: 1, arbitrary: hostileBodyText },
      );

  return fc
    .record({
      path: fc.tuple(...pathParameters.map(pathValue)),
      query: fc.tuple(
        ...queryParameters.map((parameter) =>
          parameter.required
            ? queryValue(parameter).map((v) => [parameter.name, v] as [string, string])
            : fc.option(queryValue(parameter).map((v) => [parameter.name, v] as [string, string])),
        ),
      ),
      body,
    })
    .map(({ path: values, query, body: text }) => ({
      path: pathParameters.reduce(
        (url, parameter, i) => url.replace(`{${parameter.name}}`, encodePathValue(values[i]!)),
        template,
      ),
      query: query.filter((entry): entry is [string, string] => entry !== null),
      body: text,
    }));
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fuzz-data-'));
  // Google and the book lookup, stood in for by local servers that speak their protocols.
  const provider = await startOidcProvider('http://127.0.0.1/api/auth/google/callback');
  const bookService = await startBookService();
  bookService.answer(200, { items: [volume('The Hobbit')] });
  const server = await startBuiltServer({
    DATA_DIR: dataDir,
    SEED_JOBS: '200',
    ADMIN_PASSWORD,
    LOG_LEVEL: 'error',
    GOOGLE_ISSUER: provider.issuer,
    GOOGLE_CLIENT_ID: OIDC_CLIENT.clientId,
    GOOGLE_CLIENT_SECRET: OIDC_CLIENT.clientSecret,
    BOOKS_API_URL: bookService.url,
  });
  let failed = false;
  try {
    const { jwt } = await signInThroughApi(server.base, 'admin', ADMIN_PASSWORD);
    const headers = { authorization: `Bearer ${jwt}` };
    const getJson = async (url: string) =>
      (await (await fetch(`${server.base}${url}`, { headers })).json()) as unknown;
    const document = (await getJson('/api/openapi.json')) as Document;

    // Real ids and names, so requests reach past "not found" too. Not the admin's own
    // account, whose password or deletion would end the fuzzer's session.
    const idsOf = (items: unknown) =>
      (items as { _id?: string; name?: string; username?: string }[]).flatMap((item) =>
        item.username === 'admin' ? [] : [item._id, item.name].filter((v): v is string => !!v),
      );
    const books = (await getJson('/api/books')) as unknown;
    const ids = [
      ...idsOf(Array.isArray(books) ? books : []),
      ...idsOf(await getJson('/api/entities')),
      ...idsOf(await getJson('/api/users')),
      ...idsOf(await getJson('/api/roles')),
      ...idsOf(((await getJson('/api/LIMS/jobs?page=1&perPage=20')) as { jobs: unknown[] }).jobs),
    ];

    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const operations = Object.entries(document.paths)
      .flatMap(([template, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ template, method, operation })),
      )
      // The event stream never ends: it is tested by its own tests.
      .filter(({ operation }) => !operation.responses['200']?.content?.['text/event-stream'])
      // Permission changes last: they may take the admin's other routes away.
      .sort(
        (a, b) =>
          Number(a.template === '/api/routes/{id}') - Number(b.template === '/api/routes/{id}'),
      );

    let requests = 0;
    const statuses = new Map<number, number>();
    let slowest = { ms: 0, what: '' };
    const started = performance.now();
    for (const { template, method, operation } of operations) {
      const property = fc.asyncProperty(requestsFor(template, operation, ids), async (request) => {
        requests++;
        const sent = performance.now();
        const url = `${server.base}${request.path}${request.query.length ? `?${new URLSearchParams(request.query)}` : ''}`;
        const answer = await fetch(url, {
          method: method.toUpperCase(),
          headers: {
            ...headers,
            ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: request.body,
          redirect: 'manual',
        }).catch((error: unknown) => {
          // Past the body limit the server answers 413 and closes the connection at once (the
          // client would send it all anyway): a client still sending may meet the close first.
          if ((request.body?.length ?? 0) > BODY_LIMIT && closedOnUs(error)) return undefined;
          throw error;
        });
        if (!answer) {
          statuses.set(413, (statuses.get(413) ?? 0) + 1);
          return;
        }
        const text = await answer.text();
        const took = performance.now() - sent;
        // A request that holds the server's event loop for a second makes the next ones
        // answer 503 OVERLOADED: the slowest one names the likely cause.
        if (took > slowest.ms)
          slowest = {
            ms: took,
            what: `${method.toUpperCase()} ${request.path} (${answer.status})`,
          };
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const status = String(answer.status);
        if (answer.status >= 500) throw new Error(`answered ${status}: ${text.slice(0, 300)}`);
        const documented = operation.responses[status] ?? operation.responses.default;
        if (!documented) throw new Error(`answered ${status}, which is not documented`);
        const type = answer.headers.get('content-type')?.split(';')[0] ?? '';
        const schema = documented.content?.[type]?.schema;
        if (type === 'application/json' && !schema && text)
          throw new Error(`answered ${status} with JSON, which is not documented`);
        if (type === 'application/json' && schema) {
          const validate = ajv.compile(schema);
          if (!validate(JSON.parse(text)))
            throw new Error(
              `answered ${status} outside its schema: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 300)}`,
            );
        }
      });
      const operationStarted = performance.now();
      const result = await fc.check(property, { seed: SEED, numRuns: RUNS, endOnFailure: true });
      const took = `${((performance.now() - operationStarted) / 1000).toFixed(1)} s`;
      if (result.failed) {
        failed = true;
        console.error(
          `✗ ${method.toUpperCase()} ${template} (seed ${SEED}, ${took})\n${String(result.errorInstance)}\n${fc.defaultReportMessage(result)}`,
        );
      } else {
        console.log(`✓ ${method.toUpperCase()} ${template} (${RUNS} requests, ${took})`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${operations.length} operations, ${requests} requests in ${seconds.toFixed(0)} s, seed ${SEED}`,
    );
    const tally = [...statuses].sort(([a], [b]) => a - b);
    console.log(`Answers by status: ${tally.map(([status, n]) => `${status} × ${n}`).join(', ')}`);
    console.log(`Slowest answer: ${slowest.ms.toFixed(0)} ms, ${slowest.what.slice(0, 200)}`);
  } finally {
    await server.stop();
    await bookService.close();
    await provider.close();
  }
  if (failed) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
