/** The API host, fixed at build time (`API_HOST`); empty means the page's own origin. */
export const API_HOST = process.env.API_HOST ?? '';
