import { and, eq, isNull, lt } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { messages } from '@common/messages';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { oauthStates } from '../../db/schema/oauthStates';
import { users } from '../../db/schema/users';
import { publishChanges } from '../../lib/changeEvents';
import { AppError } from '../../lib/errors';

/** How long a started sign-in may take before its state is refused. */
const STATE_TTL_MS = 10 * 60_000;

/** Thrown when the provider's answer cannot sign anyone in; the user goes back to /Login. */
export class ExternalSignInError extends Error {
  override name = 'ExternalSignInError';
}

/**
 * Sign-in with Google, or any OpenID Connect provider configured as GOOGLE_ISSUER:
 * authorization code flow with PKCE, state and nonce, the ID token checked by openid-client.
 */
export class GoogleSignIn {
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly db: Db,
    private readonly google: NonNullable<Config['google']>,
    private readonly redirectUri: string,
  ) {}

  /** The provider's metadata, fetched once; a failed fetch is retried on the next call. */
  private configuration(): Promise<oidc.Configuration> {
    this.discovered ??= oidc
      .discovery(
        new URL(this.google.issuer),
        this.google.clientId,
        this.google.clientSecret,
        undefined,
        // A provider on plain http is a local stand-in (tests); the real one is https.
        this.google.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        this.discovered = undefined;
        throw new AppError(502, 'SIGN_IN_PROVIDER_UNAVAILABLE', messages.server.googleUnavailable, {
          cause: error,
        });
      });
    return this.discovered;
  }

  /** Starts a sign-in: remembers its state, verifier and nonce, and answers where to go. */
  async authorizationUrl(now: Date): Promise<string> {
    const configuration = await this.configuration();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await this.db
      .delete(oauthStates)
      .where(lt(oauthStates.createdAt, new Date(now.getTime() - STATE_TTL_MS)));
    await this.db.insert(oauthStates).values({ state, nonce, codeVerifier, createdAt: now });
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    }).href;
  }

  /**
   * Completes a sign-in from the provider's redirect: spends the state, exchanges the code,
   * checks the ID token, and finds or creates the user (no role) keyed by the subject.
   * @returns the user's id.
   * @throws ExternalSignInError when the answer is not a valid sign-in.
   */
  async complete(callbackUrl: URL, now: Date): Promise<string> {
    const state = callbackUrl.searchParams.get('state') ?? '';
    const [started] = await this.db
      .delete(oauthStates)
      .where(eq(oauthStates.state, state))
      .returning();
    if (!started || now.getTime() - started.createdAt.getTime() > STATE_TTL_MS) {
      throw new ExternalSignInError('Unknown or expired sign-in state');
    }
    let profile: { sub: string; email?: unknown; email_verified?: unknown };
    try {
      const configuration = await this.configuration();
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: started.codeVerifier,
        expectedState: started.state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims?.sub) throw new ExternalSignInError('The ID token names no subject');
      // Google puts the email in the ID token; other providers may keep it for userinfo.
      profile =
        claims.email === undefined
          ? await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)
          : claims;
    } catch (error) {
      throw new ExternalSignInError('The provider did not confirm the sign-in', { cause: error });
    }
    return this.findOrCreateUser(profile);
  }

  private async findOrCreateUser(claims: {
    sub: string;
    email?: unknown;
    email_verified?: unknown;
  }): Promise<string> {
    const subject = claims.sub;
    const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
    const [known] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.googleSubject, subject));
    if (known) return known.id;

    const username = email ?? `google-${subject}`;
    // An account registered with the same, provider-verified email is linked, not duplicated.
    if (email && claims.email_verified === true) {
      const [linked] = await this.db
        .update(users)
        .set({ googleSubject: subject })
        .where(and(eq(users.username, email), isNull(users.googleSubject)))
        .returning({ id: users.id });
      if (linked) return linked.id;
    }
    const [created] = await this.db
      .insert(users)
      .values({ username, email, googleSubject: subject, passwordHash: null })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!created) throw new ExternalSignInError(`The username ${username} is taken`);
    // Screens listing the users show the new one.
    await publishChanges(this.db, { id: created.id, name: username, ip: null, userAgent: null }, [
      { resource: 'users', id: created.id, action: 'create', version: 1 },
    ]);
    return created.id;
  }
}
