import { jwtDecode } from 'jwt-decode';

/** The signed-in user, as the access token's claims describe them (spec section 3). */
export interface SessionUser {
  _id: string;
  username: string;
  email?: string | null;
  roles: string[];
}

interface AccessTokenClaims {
  sub?: string;
  username?: string;
  email?: string | null;
  roles?: string[];
  exp?: number;
  iat?: number;
}

/** The browser storage keys of the two tokens (spec section 4: two separate keys). */
export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';

function claimsOf(token: string | null | undefined): AccessTokenClaims | undefined {
  if (!token) return undefined;
  try {
    return jwtDecode<AccessTokenClaims>(token);
  } catch {
    return undefined;
  }
}

/** The user a token describes, or undefined when it cannot be decoded or names nobody. */
export function userFromToken(token: string | null | undefined): SessionUser | undefined {
  const claims = claimsOf(token);
  if (!claims?.username) return undefined;
  return {
    _id: claims.sub ?? '',
    username: claims.username,
    email: claims.email ?? null,
    roles: claims.roles ?? [],
  };
}

/**
 * How far the server's clock is ahead of this browser's (negative: behind), as learnt from
 * the last token that arrived; 0 until one has. A browser whose clock runs five minutes
 * fast would otherwise find every new token already expired, and refresh without end.
 */
let serverClockAheadMs = 0;

/** Learns the server's clock from a token just issued (its `iat`, seconds). */
export function noteTokenArrived(token: string | null | undefined, arrivedMs = Date.now()) {
  const iat = claimsOf(token)?.iat;
  serverClockAheadMs = typeof iat === 'number' ? iat * 1000 - arrivedMs : 0;
}

/** Now, by the server's clock as far as this browser knows it. */
const serverNow = () => Date.now() + serverClockAheadMs;

/**
 * True when the token cannot count as valid: missing, undecodable, without `exp`,
 * or with an `exp` (seconds) earlier than now (spec sections 4 and 5), by the server's clock.
 */
export function isTokenExpired(token: string | null | undefined, nowMs = serverNow()): boolean {
  const exp = claimsOf(token)?.exp;
  return typeof exp !== 'number' || exp * 1000 < nowMs;
}

/** Milliseconds until the token expires (negative once it has), by the server's clock. */
export function msUntilExpiry(token: string, nowMs = serverNow()): number {
  const exp = claimsOf(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 - nowMs : -1;
}
