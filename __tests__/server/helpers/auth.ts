import type { FastifyInstance } from 'fastify';
import { TEST_ADMIN_PASSWORD } from './testApp';

export const PASSWORDS: Record<string, string> = {
  admin: TEST_ADMIN_PASSWORD,
  contributor: 'contributor123',
  viewer: 'viewer123',
};

/** Signs in through the API; answers the login response. */
export async function login(
  app: FastifyInstance,
  username: string,
  password = PASSWORDS[username]!,
): Promise<{ jwt: string; refreshToken: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
  });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/**
 * Registers a new account with no role; answers its tokens. The default address is digits
 * after `user-`: letters at random once spelled a word another test searched for (`zed`).
 */
export async function registerUser(
  app: FastifyInstance,
  email = `user-${Math.random().toString().slice(2)}@example.com`,
): Promise<{ jwt: string; refreshToken: string; email: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'a-good-password' },
  });
  if (res.statusCode !== 200) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return { ...res.json(), email };
}

export const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });

/**
 * An admin's headers, for a test whose clock moves: signed in again once the clock has moved
 * (past an access token's life, or a sign-in's recency).
 */
export function adminHeaders(app: FastifyInstance, clock: { time: number }) {
  let admin: { headers: Record<string, string>; at: number } | undefined;
  return async () => {
    if (admin?.at !== clock.time)
      admin = { headers: bearer((await login(app, 'admin')).jwt), at: clock.time };
    return admin.headers;
  };
}
