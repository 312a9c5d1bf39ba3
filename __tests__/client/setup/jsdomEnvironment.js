// jsdom lacks the web platform pieces that fetch-based code (and msw) need; lend it Node's.
// Not Node's FormData: React builds one from a submitted <form> when the submit starts a
// transition (a navigation), and only jsdom's own takes a jsdom form.
// Not MessageChannel or Node's BroadcastChannel: React's scheduler would use a real
// MessageChannel and keep jest alive, and a real BroadcastChannel is a handle too.
const { TestEnvironment } = require('jest-environment-jsdom');

/**
 * A BroadcastChannel with no handle behind it: instances of one name in this test file
 * hear each other, nothing else. msw creates one when it loads (for its WebSocket API,
 * which these tests do not use). Node's own channel would be a libuv handle that can keep
 * the process alive (msw unrefs it, but a second `new` elsewhere might not); this one
 * cannot, because it owns no handle at all.
 */
function makeBroadcastChannel(g) {
  const open = new Map();
  return class BroadcastChannel extends g.EventTarget {
    constructor(name) {
      super();
      this.name = String(name);
      this.onmessage = null;
      if (!open.has(this.name)) open.set(this.name, new Set());
      open.get(this.name).add(this);
    }
    postMessage(data) {
      const peers = [...(open.get(this.name) ?? [])].filter((peer) => peer !== this);
      // Delivered asynchronously, like the real one; a promise is not a timer, so fake
      // timers do not hold it back.
      void Promise.resolve().then(() => {
        for (const peer of peers) {
          const event = new g.MessageEvent('message', { data });
          peer.dispatchEvent(event);
          if (typeof peer.onmessage === 'function') peer.onmessage(event);
        }
      });
    }
    close() {
      open.get(this.name)?.delete(this);
    }
    ref() {}
    unref() {}
  };
}

class JsdomWithFetchEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    const g = this.global;
    for (const name of [
      'fetch',
      'Response',
      'Headers',
      'AbortController',
      'AbortSignal',
      'TextEncoder',
      'TextDecoder',
      'TextEncoderStream',
      'TextDecoderStream',
      'structuredClone',
      'ReadableStream',
      'WritableStream',
      'TransformStream',
    ]) {
      g[name] = globalThis[name];
    }
    g.BroadcastChannel = makeBroadcastChannel(g);
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
