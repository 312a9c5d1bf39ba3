import { createHash, createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_LIFE_SECONDS } from '@common/constants';
import type { Db } from '../db/client';
import { settings } from '../db/schema/settings';

const SIGNING_KEY_SETTING = 'jwt_secret';

/**
 * The key that signs access tokens: `JWT_SECRET` when set, else one generated at the
 * first start and kept in the database, so tokens survive restarts and every instance
 * signs and checks with the same key.
 */
export async function loadSigningKey(db: Db, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insert(settings)
    .values({ key: SIGNING_KEY_SETTING, value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, SIGNING_KEY_SETTING));
  return new TextEncoder().encode(row!.value);
}

/** What an access token says about its user. */
export interface AccessClaims {
  sub: string;
  username: string;
  email: string | null;
  roles: string[];
  /** The user's session generation when the token was issued (claim `gen`; 0 when absent). */
  sessionGeneration: number;
  /**
   * The session it belongs to (claim `sid`: its refresh-token family), which ends its access
   * tokens when it ends. Absent in tokens signed before the claim existed.
   */
  sessionId?: string;
}

/**
 * A URL as a download ticket is bound to: its path and its query without the ticket, each
 * in one spelling however the browser encoded them.
 */
export function downloadPathOf(url: string): string {
  const parsed = new URL(url, 'http://server');
  parsed.searchParams.delete('ticket');
  parsed.searchParams.sort();
  return `${parsed.pathname}?${parsed.searchParams.toString()}`;
}

/** How long a download ticket opens its export. */
export const DOWNLOAD_TICKET_SECONDS = 60;
/** A download ticket's audience: an access token (which has none) is never taken for one. */
const DOWNLOAD_AUDIENCE = 'download';

/** Past this many tokens the verified-token cache starts over, so its memory stays bounded. */
const MAX_VERIFIED = 10_000;

/** Signs and checks access tokens (HS256, 5 minutes) against the given clock. */
export class AccessTokens {
  /** Tokens already checked, with their claims and expiry (ms): checking costs more than the rest of a request. */
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();

  constructor(
    private readonly key: Uint8Array,
    private readonly now: () => Date,
  ) {}

  sign({
    sub,
    username,
    email,
    roles,
    sessionGeneration,
    sessionId,
  }: AccessClaims): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ username, email, roles, gen: sessionGeneration, sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_LIFE_SECONDS)
      .sign(this.key);
  }

  /** The token's claims, or undefined when it is malformed, forged or expired. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    const known = this.verified.get(token);
    if (known && this.now().getTime() < known.expiresAt) return known.claims;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: this.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      // A download ticket (it has an audience) opens its one export, nothing else.
      if (payload.aud !== undefined) return undefined;
      const claims = {
        sub: payload.sub!,
        username: String(payload.username),
        email: typeof payload.email === 'string' ? payload.email : null,
        roles: Array.isArray(payload.roles) ? payload.roles.map(String) : [],
        // Tokens signed before the claim existed belong to the first generation.
        sessionGeneration: typeof payload.gen === 'number' ? payload.gen : 0,
        sessionId: typeof payload.sid === 'string' ? payload.sid : undefined,
      };
      if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
      this.verified.set(token, { claims, expiresAt: payload.exp! * 1000 });
      return claims;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
  }

  /**
   * A download ticket: lets the browser fetch the export at `path` (with its query) as the
   * user for DOWNLOAD_TICKET_SECONDS, with no header, so it saves the answer straight to a
   * file. Bound to that one path: it opens nothing else.
   */
  signDownload(
    sub: string,
    { sessionGeneration, sessionId }: Pick<AccessClaims, 'sessionGeneration' | 'sessionId'>,
    path: string,
  ): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ gen: sessionGeneration, sid: sessionId, path: downloadPathOf(path) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setAudience(DOWNLOAD_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + DOWNLOAD_TICKET_SECONDS)
      .sign(this.key);
  }

  /** The user and session of a download ticket for `path`; undefined if it is not one. */
  async verifyDownload(
    ticket: string,
    path: string,
  ): Promise<Pick<AccessClaims, 'sub' | 'sessionGeneration' | 'sessionId'> | undefined> {
    try {
      const { payload } = await jwtVerify(ticket, this.key, {
        algorithms: ['HS256'],
        audience: DOWNLOAD_AUDIENCE,
        currentDate: this.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (payload.path !== downloadPathOf(path)) return undefined;
      return {
        sub: payload.sub!,
        sessionGeneration: typeof payload.gen === 'number' ? payload.gen : 0,
        sessionId: typeof payload.sid === 'string' ? payload.sid : undefined,
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
  }

  /**
   * The refresh token that succeeds `token` at rotation. Derived (keyed with the signing
   * key) rather than random, so the server can answer the same successor again during the
   * grace window without ever storing a token in the clear.
   */
  successorOf(token: string): string {
    return createHmac('sha256', this.key).update(`refresh:${token}`).digest('base64url');
  }
}

/** A new random refresh token, opaque to its holder. */
export const newRefreshToken = () => randomBytes(32).toString('base64url');

/** How refresh tokens are stored: SHA-256 (they are long random strings, so no salt is needed). */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
