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
 * True when the token cannot count as valid: missing, undecodable, without `exp`,
 * or with an `exp` (seconds) earlier than now (spec sections 4 and 5).
 */
export function isTokenExpired(token: string | null | undefined, nowMs = Date.now()): boolean {
  const exp = claimsOf(token)?.exp;
  return typeof exp !== 'number' || exp * 1000 < nowMs;
}

/** Milliseconds until the token expires (negative once it has). */
export function msUntilExpiry(token: string, nowMs = Date.now()): number {
  const exp = claimsOf(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 - nowMs : -1;
}
