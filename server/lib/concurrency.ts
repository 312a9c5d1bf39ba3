import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '@common/messages';
import { AppError, badRequest } from './errors';

/** `"3"`, or the weak `W/"3"`: the one version an `If-Match` names. */
const ETAG = /^(?:W\/)?"(\d{1,9})"$/;

/**
 * The versions a write says it was based on: its `If-Match` header's (`*` names none: any
 * current version will do) and its body's `_version`. Empty when it names none, and then
 * the last write wins (DESIGN, Concurrency).
 * @throws 400 for an `If-Match` that is not one quoted version.
 */
export function baseVersions(request: FastifyRequest): number[] {
  const versions: number[] = [];
  const header = request.headers['if-match']?.trim();
  if (header !== undefined && header !== '*') {
    const match = ETAG.exec(header);
    if (!match) {
      throw badRequest(`If-Match ${messages.server.badIfMatch}`, [
        { field: 'headers.if-match', message: messages.server.badIfMatch },
      ]);
    }
    versions.push(Number(match[1]));
  }
  const body = request.body as { _version?: unknown } | undefined;
  if (typeof body?._version === 'number') versions.push(body._version);
  return versions;
}

/**
 * Refuses a write based on another version than the item's `current` one: 409
 * VERSION_CONFLICT carrying the item as it is now (`wire()`, read only then). Call it with
 * the item's row locked (`select … for update`), so no other write can slip in between the
 * check and the write.
 */
export async function checkVersion<Item>(
  current: { version: number },
  base: readonly number[],
  wire: () => Item | Promise<Item>,
): Promise<void> {
  if (base.some((version) => version !== current.version)) {
    throw new AppError(409, 'VERSION_CONFLICT', messages.server.versionConflict, {
      current: await wire(),
    });
  }
}

/**
 * A `preSerialization` hook: an answer that is one versioned item (it has a `_version`)
 * carries that version as its `ETag`, for a later `If-Match`.
 */
export async function tagVersionedItem(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const version = (payload as { _version?: unknown } | null)?._version;
  if (typeof version === 'number' && !Array.isArray(payload))
    void reply.header('etag', `"${version}"`);
  return payload;
}
