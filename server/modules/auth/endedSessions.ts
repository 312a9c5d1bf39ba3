import { and, gte, isNotNull } from 'drizzle-orm';
import { ACCESS_TOKEN_LIFE_SECONDS } from '@common/constants';
import type { Db } from '../../db/client';
import { refreshTokens } from '../../db/schema/refreshTokens';

/** The NOTIFY channel a trigger on refresh_tokens fires with a session's id as it ends (migration 0023). */
export const SESSIONS_ENDED_CHANNEL = 'sessions_ended';

/**
 * How long an ended session is remembered: as long as an access token issued just before
 * it ended lives, and a minute for clocks that disagree.
 */
const REMEMBERED_MS = (ACCESS_TOKEN_LIFE_SECONDS + 60) * 1000;

/**
 * The sessions (refresh-token families, the `sid` of access tokens) that ended lately, by
 * logout, by a spent refresh token used again, or by a password set: their access tokens
 * are refused from the next request on, on every server, without a database read per
 * request. Filled from the database at start and after a lost notification connection,
 * and by NOTIFY in between.
 */
export class EndedSessions {
  /** Session id → when this server heard it ended (ms); oldest first. */
  private readonly ended = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  has(sessionId: string): boolean {
    return this.ended.has(sessionId);
  }

  add(sessionId: string): void {
    const now = this.now().getTime();
    this.ended.delete(sessionId);
    this.ended.set(sessionId, now);
    // A map keeps its order of insertion: the first are the oldest.
    for (const [id, endedAt] of this.ended) {
      if (now - endedAt < REMEMBERED_MS) break;
      this.ended.delete(id);
    }
  }

  /** Reads the sessions ended within an access token's life (at start, or after a lost NOTIFY). */
  async reload(): Promise<void> {
    const since = new Date(this.now().getTime() - REMEMBERED_MS);
    const rows = await this.db
      .selectDistinct({ id: refreshTokens.familyId })
      .from(refreshTokens)
      .where(and(isNotNull(refreshTokens.revokedAt), gte(refreshTokens.revokedAt, since)));
    for (const { id } of rows) this.add(id);
  }
}
