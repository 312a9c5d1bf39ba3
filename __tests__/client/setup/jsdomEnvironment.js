// jsdom lacks the web platform pieces that fetch-based code needs; lend it Node's.
// Not MessageChannel or BroadcastChannel: React's scheduler would then keep jest alive.
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetchEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    const g = this.global;
    for (const name of [
      'fetch',
      'Response',
      'Headers',
      'FormData',
      'AbortController',
      'AbortSignal',
      'TextEncoder',
      'TextDecoder',
      'structuredClone',
      'ReadableStream',
      'WritableStream',
      'TransformStream',
    ]) {
      g[name] = globalThis[name];
    }
    // Node's Request rejects relative URLs; the browser resolves them against the page.
    const NodeRequest = globalThis.Request;
    g.Request = class Request extends NodeRequest {
      constructor(input, init) {
        super(typeof input === 'string' ? new URL(input, g.location.href).href : input, init);
      }
    };
  }
}

module.exports = JsdomWithFetchEnvironment;
