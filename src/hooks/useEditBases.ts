import { useCallback, useState } from 'react';

/**
 * What each row being edited started from, by id: its save names that version, so another
 * person's save meanwhile is a conflict to resolve rather than overwritten. Kept until the
 * row is saved or cancelled (a failed save comes back to edit mode with the same base).
 */
export function useEditBases<Base>() {
  const [bases, setBases] = useState<Record<string, Base>>({});
  /** The row's edit starts from `base` (unless it already started). */
  const remember = useCallback((id: string, base: Base) => {
    setBases((known) => (id in known ? known : { ...known, [id]: base }));
  }, []);
  /** The row's edit goes on from `base` (edit further after a conflict). */
  const rebase = useCallback((id: string, base: Base) => {
    setBases((known) => ({ ...known, [id]: base }));
  }, []);
  const forget = useCallback((id: string) => {
    setBases((known) => Object.fromEntries(Object.entries(known).filter(([key]) => key !== id)));
  }, []);
  return { bases, remember, rebase, forget };
}
