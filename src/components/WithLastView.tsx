import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { selectCurrentUser } from '@/auth/auth.slice';
import { useAppSelector } from '@/lib/store';

/**
 * Where this tab keeps a user's last view of a list: the tab's session storage, so that
 * nothing of it outlives the tab (a logout leaves no trace in the browser's storage).
 */
const storageKey = (userId: string, grid: string) => `lastView:${userId}:${grid}`;

function readStored(key: string | undefined): string | null {
  try {
    return key ? window.sessionStorage.getItem(key) : null;
  } catch {
    return null; // Storage refused (a private window): no last view.
  }
}

/**
 * Comes back to a list as it was left: arriving with no view in the URL (from the menu),
 * the user's last view of the list is put there before the list renders. Every later view
 * (less its page) is kept as the last one, per user, in this tab.
 */
export function WithLastView({ grid, children }: { grid: string; children: ReactNode }) {
  const userId = useAppSelector(selectCurrentUser)?._id;
  const key = userId && storageKey(userId, grid);
  const [params, setParams] = useSearchParams();
  // Until the last view is in the URL, the list waits (it would ask for the default one).
  const [restoring, setRestoring] = useState(() => params.size === 0 && !!readStored(key));
  if (restoring && params.size > 0) setRestoring(false);

  useEffect(() => {
    if (!key) return;
    if (restoring) {
      setParams(readStored(key) ?? '', { replace: true });
      return;
    }
    const view = new URLSearchParams(params);
    view.delete('page');
    try {
      window.sessionStorage.setItem(key, view.toString());
    } catch {
      // Storage refused: the list still works, without coming back to it.
    }
  }, [key, params, restoring, setParams]);

  return restoring ? null : children;
}
