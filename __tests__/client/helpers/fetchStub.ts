/** A stand-in for the network: answers by `METHOD /path`, and records every request. */
export class FetchStub {
  readonly requests: Request[] = [];
  private readonly routes = new Map<string, (request: Request) => Response | Promise<Response>>();

  constructor() {
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      this.requests.push(request.clone());
      const url = new URL(request.url);
      const handler = this.routes.get(`${request.method} ${url.pathname}`);
      if (!handler) return json(404, { statusCode: 404, error: 'Not Found', message: 'stub' });
      return handler(request);
    }) as typeof fetch;
    // The navigation lists the entities on every signed-in page.
    this.on('GET /api/entities', () => json(200, []));
  }

  on(route: string, handler: (request: Request) => Response | Promise<Response>) {
    this.routes.set(route, handler);
    return this;
  }

  calls(route: string): Request[] {
    return this.requests.filter(
      (request) => `${request.method} ${new URL(request.url).pathname}` === route,
    );
  }
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
