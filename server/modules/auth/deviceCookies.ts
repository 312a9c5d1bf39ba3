import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a browser keeps a device cookie; each sign-in there issues a new one. */
const DEVICE_COOKIE_DAYS = 365;
/** Sent with sign-in requests only. */
const COOKIE_PATH = '/api/auth';
const NAME_PREFIX = 'device-';

/**
 * Device cookies (OWASP's defence against guessing without lock-out): a browser that once
 * signed in as a user gets a cookie that lets it past that user's attempt budget, so the
 * owner still gets in while guesses from everywhere else are refused. A cookie's value is
 * `<user id>.<session generation>.<nonce>.<signature>`: signed with a key of its own derived
 * from the signing key; naming its user, so a cookie of one account never stands for another;
 * and its user's session generation, so a password set by an administrator ends every
 * device cookie of that user with their sessions.
 */
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(signingKey: Uint8Array) {
    this.key = createHmac('sha256', signingKey).update('device cookies').digest();
  }

  private signature(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  /** Sets the device cookie of `userId` (now in session generation `generation`) in the browser of `request`. */
  set(request: FastifyRequest, reply: FastifyReply, userId: string, generation: number): void {
    const payload = `${userId}.${generation}.${randomBytes(16).toString('base64url')}`;
    void reply.header(
      'set-cookie',
      stringifySetCookie({
        name: `${NAME_PREFIX}${userId}`,
        value: `${payload}.${this.signature(payload).toString('base64url')}`,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        path: COOKIE_PATH,
        maxAge: DEVICE_COOKIE_DAYS * 86_400,
      }),
    );
  }

  /**
   * The nonce of the device cookie `request` holds for `userId` (its own attempts are counted
   * by it), or undefined when it holds none, or one this server did not sign for that user in
   * their session generation `generation`.
   */
  of(request: FastifyRequest, userId: string, generation: number): string | undefined {
    const value = parseCookie(request.headers.cookie ?? '')[`${NAME_PREFIX}${userId}`];
    const [owner, signedGeneration, nonce, signature] = value?.split('.') ?? [];
    if (owner !== userId || signedGeneration !== String(generation) || !nonce || !signature)
      return undefined;
    const expected = this.signature(`${owner}.${signedGeneration}.${nonce}`);
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? nonce : undefined;
  }
}
