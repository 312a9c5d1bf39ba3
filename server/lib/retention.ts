import { sql } from 'drizzle-orm';
import type { RetentionPolicy } from '../config';
import { type Db, queryRows } from '../db/client';

/** Rows deleted per statement: short transactions, so pruning never holds the tables long. */
export const PRUNE_BATCH = 1000;

const DAY_MS = 86_400_000;

/** Runs `deleteBatch` until it deletes fewer than a batch; answers how many it deleted. */
async function inBatches(deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}

const deletedCount = async (db: Db, query: ReturnType<typeof sql>) =>
  (
    await queryRows<{ n: number }>(
      db,
      sql`with gone as (${query} returning 1) select count(*)::int as n from gone`,
    )
  )[0]!.n;

/**
 * Versions older than `cutoff`, except the one that holds an item's current state (its
 * latest version, unless that is its delete): an unchanged item keeps its history's last
 * entry; a deleted one leaves "Recently deleted" once its delete is that old.
 */
const pruneHistoryOlderThan = (db: Db, cutoff: Date) =>
  inBatches(() =>
    deletedCount(
      db,
      sql`delete from versions where id in (
        select v.id from versions v
        where v.version_date < ${cutoff.toISOString()}::timestamptz
          and (v.action = 'delete' or exists (
            select 1 from versions later
            where later.resource = v.resource and later.document_id = v.document_id
              and (later.version_date, later.id) > (v.version_date, v.id)))
        order by v.version_date
        limit ${PRUNE_BATCH})`,
    ),
  );

/** Each item's versions beyond its newest `max`. */
async function pruneHistoryBeyond(db: Db, max: number): Promise<number> {
  const crowded = await queryRows<{ resource: string; document_id: string }>(
    db,
    sql`select resource, document_id from versions
        group by resource, document_id having count(*) > ${max}`,
  );
  let total = 0;
  for (const { resource, document_id: documentId } of crowded) {
    total += await inBatches(() =>
      deletedCount(
        db,
        sql`delete from versions where id in (
          select id from versions where resource = ${resource} and document_id = ${documentId}
          order by version_date desc, id desc
          offset ${max} limit ${PRUNE_BATCH})`,
      ),
    );
  }
  return total;
}

/** The rows of `table` (with an `id` and an `at` column) older than `cutoff`. */
const pruneOlderThan = (db: Db, table: 'audit_events' | 'change_events', cutoff: Date) =>
  inBatches(() =>
    deletedCount(
      db,
      sql`delete from ${sql.identifier(table)} where id in (
        select id from ${sql.identifier(table)} where at < ${cutoff.toISOString()}::timestamptz
        order by at limit ${PRUNE_BATCH})`,
    ),
  );

/**
 * How long what a user's or role's delete took is kept, to undo it (their password hashes
 * and emails among it): then it is gone, whatever the policy.
 */
export const UNDO_KEEP_HOURS = 24;

/** The versions of users and roles (their deletes, and the marks that those were undone). */
const pruneUndoOlderThan = (db: Db, cutoff: Date) =>
  inBatches(() =>
    deletedCount(
      db,
      sql`delete from versions where id in (
        select id from versions
        where resource in ('users', 'roles') and version_date < ${cutoff.toISOString()}::timestamptz
        order by version_date limit ${PRUNE_BATCH})`,
    ),
  );

/**
 * How long change events are kept for event streams that reconnect: one that was away
 * longer refetches everything instead.
 */
export const CHANGE_EVENTS_KEEP_HOURS = 24;

/**
 * Deletes what the retention policy no longer keeps, in batches: versions older than
 * `historyDays` (but each item's current state), versions beyond `historyMaxVersions` per
 * item, audit events older than `auditDays`; and, whatever the policy, change events older
 * than CHANGE_EVENTS_KEEP_HOURS and users' and roles' versions older than UNDO_KEEP_HOURS.
 * Safe to run on several servers at once.
 */
export async function pruneRetained(db: Db, policy: RetentionPolicy, now: Date) {
  const daysBefore = (days: number) => new Date(now.getTime() - days * DAY_MS);
  return {
    versions:
      (policy.historyDays ? await pruneHistoryOlderThan(db, daysBefore(policy.historyDays)) : 0) +
      (policy.historyMaxVersions ? await pruneHistoryBeyond(db, policy.historyMaxVersions) : 0) +
      (await pruneUndoOlderThan(db, daysBefore(UNDO_KEEP_HOURS / 24))),
    auditEvents: policy.auditDays
      ? await pruneOlderThan(db, 'audit_events', daysBefore(policy.auditDays))
      : 0,
    changeEvents: await pruneOlderThan(
      db,
      'change_events',
      daysBefore(CHANGE_EVENTS_KEEP_HOURS / 24),
    ),
  };
}
