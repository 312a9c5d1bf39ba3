import { messages } from '@common/messages';
import { eventually } from '../helpers/eventually';
import { STATIC_FILES, type TestApp, startTestApp } from '../helpers/testApp';

describe('under overload', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { MAX_EVENT_LOOP_DELAY_MS: '20' });
  });
  afterAll(() => t.close());

  const health = () => t.app.inject({ method: 'GET', url: '/api/health' });

  it('answers 503 OVERLOADED with Retry-After while the event loop lags, then serves again', async () => {
    // Opening the embedded database stalled the loop too: first, a calm loop.
    await eventually(async () => expect((await health()).statusCode).toBe(200));
    // A stall of the loop, as a runaway computation or a flood of work would cause.
    const until = performance.now() + 1500;
    while (performance.now() < until);
    await eventually(async () => {
      const shed = await health();
      expect(shed.statusCode).toBe(503);
      expect(shed.headers['retry-after']).toBe('5');
      expect(shed.json()).toMatchObject({
        code: 'OVERLOADED',
        message: messages.server.overloaded,
      });
    });
    await eventually(async () => expect((await health()).statusCode).toBe(200));
  });

  it("still serves the web app's files while it sheds the API", async () => {
    await eventually(async () => expect((await health()).statusCode).toBe(200));
    const until = performance.now() + 1500;
    while (performance.now() < until);
    await eventually(async () => expect((await health()).statusCode).toBe(503));
    const script = await t.app.inject({ method: 'GET', url: '/assets/main.0123abcd.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(STATIC_FILES['assets/main.0123abcd.js']);
    expect((await t.app.inject({ method: 'GET', url: '/books' })).statusCode).toBe(200);
    expect((await health()).statusCode).toBe(503);
  });
});
