import type { Db } from '../../db/client';
import { looksLikeUuid } from '../../lib/uuid';
import { findIdentity, type IdentityRecord } from './session.service';

/** The NOTIFY channel a database trigger fires on any change to users, roles or memberships. */
export const IDENTITIES_CHANNEL = 'identities_changed';

/** Past this many users the cache starts over, so its memory stays bounded. */
const MAX_CACHED = 10_000;
/**
 * How long an identity is trusted without a word from the database: a bound on how stale
 * it can get should the LISTEN connection drop unnoticed and a NOTIFY be lost.
 */
export const IDENTITY_TTL_MS = 30_000;

/**
 * Who each signed-in user is (roles included), read from the database once and kept until
 * anything about users or roles changes (or IDENTITY_TTL_MS passes): every request needs
 * it, and asking the database each time cost a round trip per request.
 */
export class IdentityCache {
  private identities = new Map<string, { record: IdentityRecord; readAt: number }>();
  /** Counts invalidations, so a read that raced one is not kept. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** The user's identity and session generation, or undefined when there is no such user. */
  async find(userId: string): Promise<IdentityRecord | undefined> {
    // A validly signed token may still name no user id at all (a key shared with another
    // service): no such user, rather than a database error.
    if (!looksLikeUuid(userId)) return undefined;
    const readAt = this.now().getTime();
    const cached = this.identities.get(userId);
    if (cached && readAt - cached.readAt < IDENTITY_TTL_MS) return cached.record;
    const generation = this.generation;
    const record = await findIdentity(this.db, userId);
    if (record && generation === this.generation) {
      if (this.identities.size >= MAX_CACHED) this.identities.clear();
      this.identities.set(userId, { record, readAt });
    }
    return record;
  }

  /** Forgets every identity (something about users or roles changed). */
  invalidate(): void {
    this.generation++;
    this.identities.clear();
  }
}
