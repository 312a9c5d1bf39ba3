/**
 * The message catalogue: every text the product shows or logs that the spec fixes,
 * and the server's error messages. One place, so the client, the server and the tests agree.
 */
export const messages = {
  banner:
    'This is a development server. It could be wiped out, changed, down, etc. Do not use sensitive information nor rely on storing data!',
  brand: 'An Experimentation',

  toast: {
    sessionExpired: 'Session expired',
    notAllowed: 'You are not allowed to perform this action',
    notFound: 'Whatever you requested is not here.',
  },
  requestCanceled: 'Request canceled',

  errorBoundary: {
    title: 'Oops! Something went wrong.',
    body: "We're sorry, but an error occurred while rendering this component.",
  },
  routerError: 'Unexpected Application Error!',

  server: {
    notFound: 'Not found',
    apiRouteNotFound: (method: string, url: string) => `Route ${method}:${url} not found`,
    internal: 'Something went wrong on our side. Please try again later.',
    invalidRequest: 'The request is invalid',
    databaseUnavailable: 'The database is not reachable',
    clientNotBuilt: 'The web app is not built: run `npm run build`',
  },
} as const;
