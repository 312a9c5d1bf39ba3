import type { Identity } from '@common/schemas/auth';
import type { Db } from '../../db/client';
import { findIdentity } from './session.service';

/** The NOTIFY channel a database trigger fires on any change to users, roles or memberships. */
export const IDENTITIES_CHANNEL = 'identities_changed';

/** Past this many users the cache starts over, so its memory stays bounded. */
const MAX_CACHED = 10_000;

/**
 * Who each signed-in user is (roles included), read from the database once and kept until
 * anything about users or roles changes: every request needs it, and asking the database
 * each time cost a round trip per request.
 */
export class IdentityCache {
  private identities = new Map<string, Identity>();
  /** Counts invalidations, so a read that raced one is not kept. */
  private generation = 0;

  constructor(private readonly db: Db) {}

  /** The user's identity, or undefined when there is no such user. */
  async find(userId: string): Promise<Identity | undefined> {
    const cached = this.identities.get(userId);
    if (cached) return cached;
    const generation = this.generation;
    const identity = await findIdentity(this.db, userId);
    if (identity && generation === this.generation) {
      if (this.identities.size >= MAX_CACHED) this.identities.clear();
      this.identities.set(userId, identity);
    }
    return identity;
  }

  /** Forgets every identity (something about users or roles changed). */
  invalidate(): void {
    this.generation++;
    this.identities.clear();
  }
}
