import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { messages } from '@common/messages';
import { bearer, login } from './helpers/auth';
import { STATIC_FILES, type TestApp, compressedCopyText, startTestApp } from './helpers/testApp';
import { testDbKinds } from './helpers/testDatabase';

describe.each(testDbKinds)('the API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { CORS_ORIGINS: 'https://allowed.example' });
  });
  afterAll(() => t.close());

  describe('GET /api/health', () => {
    it('answers ok and names the database engine', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', db: kind, instance: t.config.instanceName });
    });
  });

  describe('errors', () => {
    it('answers 404 JSON for an unknown /api path', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing?x=1' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'NOT_FOUND',
        message: messages.server.apiRouteNotFound,
      });
    });

    it('answers 404 JSON for a non-GET request outside /api', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/books' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    });

    it('answers 400 JSON for a malformed JSON body', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/health',
        headers: { 'content-type': 'application/json' },
        payload: '{"not json',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        code: 'MALFORMED_REQUEST',
        message: messages.server.malformedRequest,
      });
    });
  });

  describe('the web app', () => {
    it.each(['/', '/books', '/entities/Car', '/google-callback/?token=x'])(
      'answers index.html, never cached, for %s',
      async (url) => {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body).toContain('app shell');
      },
    );

    it('serves built assets with a long-lived cache', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/assets/main.0123abcd.js' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('console.log');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it.each([
      ['/assets/main.0123abcd.js', STATIC_FILES['assets/main.0123abcd.js']],
      ['/books', STATIC_FILES['index.html']],
    ])("sends the build's brotli or gzip copy of %s by Accept-Encoding", async (url, text) => {
      const get = (acceptEncoding?: string) =>
        t.app.inject({
          method: 'GET',
          url,
          headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
        });
      const br = await get('gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(compressedCopyText(text, 'br'));

      const gzip = await get('gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(compressedCopyText(text, 'gz'));

      const plain = await get();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(text);
    });
  });

  describe('compression of API answers', () => {
    it('compresses a JSON answer above 1 KB: gzip for a browser, brotli for a client that takes only brotli', async () => {
      const { jwt } = await login(t.app, 'admin');
      const get = (acceptEncoding?: string) =>
        t.app.inject({
          method: 'GET',
          url: '/api/routes',
          headers: {
            ...bearer(jwt),
            ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
          },
        });
      const plain = await get();
      expect(plain.body.length).toBeGreaterThan(1024);
      expect(plain.headers['content-encoding']).toBeUndefined();

      const gzip = await get('gzip, deflate, br, zstd');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.rawPayload.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());

      const br = await get('br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    });

    it('sends an answer under 1 KB as it is', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json()).toEqual({ status: 'ok', db: kind, instance: t.config.instanceName });
    });
  });

  describe('security headers', () => {
    it.each(['/api/health', '/api/nope', '/'])('are on the response to %s', async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    });
  });

  describe('CORS', () => {
    it('allows a configured origin, with credentials', async () => {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/health',
        headers: { origin: 'https://allowed.example', 'access-control-request-method': 'GET' },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('https://allowed.example');
      expect(res.headers['access-control-allow-credentials']).toBe('true');
    });

    it.each(['PUT', 'DELETE'])(
      'lets a configured origin send %s, with If-Match',
      async (method) => {
        const res = await t.app.inject({
          method: 'OPTIONS',
          url: '/api/books/1',
          headers: {
            origin: 'https://allowed.example',
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization, content-type, if-match',
          },
        });
        expect(res.statusCode).toBe(204);
        expect(res.headers['access-control-allow-methods']).toContain(method);
        expect(res.headers['access-control-allow-headers']).toMatch(/if-match/i);
      },
    );

    it('does not allow any other origin', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { origin: 'https://evil.example' },
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/books',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    });
  });

  it('answers 503 from the health check once the database is gone', async () => {
    const broken = await startTestApp(kind);
    await broken.database.close();
    const res = await broken.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'DATABASE_UNAVAILABLE',
      message: messages.server.databaseUnavailable,
    });
    await broken.app.close();
  });
});
