import type { ChangeResource } from '@common/schemas/events';
import { type HeardChange, itemKey } from '@/api/live.slice';
import { useAppSelector } from '@/lib/store';

/** The last change the event stream told of an item (none for no item). */
export function useHeardChange(
  resource: ChangeResource,
  id: string | undefined,
): HeardChange | undefined {
  return useAppSelector((state) =>
    id === undefined ? undefined : state.live?.changes[itemKey(resource, id)],
  );
}

/**
 * Another person's save of the item being edited since the edit started from version
 * `baseVersion`: the screen says "Changed by X — review". Undefined when there is none.
 */
export function useChangedMeanwhile(
  resource: ChangeResource,
  id: string | undefined,
  baseVersion: number | undefined,
): HeardChange | undefined {
  const me = useAppSelector((state) => state.auth.user?._id);
  const heard = useHeardChange(resource, id);
  return heard && baseVersion !== undefined && heard.actorId !== me && heard.version > baseVersion
    ? heard
    : undefined;
}
