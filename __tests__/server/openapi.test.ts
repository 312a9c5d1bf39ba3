import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { HTTPMethods } from 'fastify';
import { bearer, login } from './helpers/auth';
import { type TestApp, startTestApp } from './helpers/testApp';

type Operation = { security?: unknown[]; tags?: string[]; responses: Record<string, unknown> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** `/api/books/:id` as OpenAPI writes it: `/api/books/{id}`. */
const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: Document;
  const publicRoutes: { method: string; url: string }[] = [];
  beforeAll(async () => {
    t = await startTestApp(
      'pglite',
      {},
      {
        onRoute: (route) => {
          const config = (route as { config?: { public?: boolean } }).config;
          if (!config?.public || !route.url.startsWith('/api/')) return;
          for (const method of [route.method as HTTPMethods].flat())
            if (method !== 'HEAD') publicRoutes.push({ method, url: route.url });
        },
      },
    );
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    document = res.json();
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    // The validator is ESM-only with paths from import.meta: run as Node runs it.
    const cli = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
    const { stdout } = await promisify(execFile)(process.execPath, [cli, file]);
    expect(JSON.parse(stdout)).toEqual({ valid: true });
  });

  it('documents every route of the routes table, with its bearer token, 401, 403 and errors', async () => {
    const { jwt } = await login(t.app, 'admin');
    const routes: { routeVerb: string; routePath: string }[] = (
      await t.app.inject({ method: 'GET', url: '/api/routes', headers: bearer(jwt) })
    ).json();
    expect(routes.length).toBeGreaterThan(30);
    const undocumented = routes.filter(
      ({ routeVerb, routePath }) =>
        !document.paths[openapiPath(routePath)]?.[routeVerb.toLowerCase()],
    );
    expect(undocumented).toEqual([]);
    for (const { routeVerb, routePath } of routes) {
      const operation = document.paths[openapiPath(routePath)]![routeVerb.toLowerCase()]!;
      expect({ routeVerb, routePath, security: operation.security, tags: operation.tags }).toEqual({
        routeVerb,
        routePath,
        security: [{ bearer: [] }],
        // Grouped by resource.
        tags: [routePath.split('/')[2]],
      });
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['400', '401', '403', 'default']),
      );
      // At least one answer that is not an error.
      expect(Object.keys(operation.responses).some((status) => /^[23]/.test(status))).toBe(true);
    }
  });

  it('documents every public route, without a token', () => {
    const documented = publicRoutes.filter(
      ({ url }) => !url.startsWith('/api/docs') && url !== '/api/openapi.json',
    );
    expect(documented.length).toBeGreaterThan(5);
    for (const { method, url } of documented) {
      const operation = document.paths[openapiPath(url)]?.[method.toLowerCase()];
      expect({ method, url, documented: !!operation, security: operation?.security }).toEqual({
        method,
        url,
        documented: true,
        security: undefined,
      });
      expect(Object.keys(operation!.responses).some((status) => /^[23]/.test(status))).toBe(true);
    }
  });

  it('is readable at /api/docs, a page whose scripts are this server’s own files', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    expect(page.body).not.toMatch(/<script(?![^>]*src=)[^>]*>\s*\S/);
    for (const src of scripts) {
      const script = await t.app.inject({
        method: 'GET',
        url: new URL(src, 'http://x/api/docs').pathname,
      });
      expect({ src, status: script.statusCode }).toEqual({ src, status: 200 });
    }
  });
});
