import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

/** How long typing in a search box pauses before the search is applied. */
export const SEARCH_DELAY_MS = 300;

/** The most characters a quick search takes (the server's limit). */
export const SEARCH_MAX_LENGTH = 200;

/**
 * A list's quick search, kept in the URL (`?q=`): what is typed, and the search applied once
 * typing pauses. A search that comes from the URL (Back, a link) replaces what was typed.
 * Typing replaces the history entry rather than adding one per key, and another search
 * starts at the first page.
 */
export function useQuickSearch() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const [fromUrl, setFromUrl] = useState(q);
  if (fromUrl !== q) {
    setFromUrl(q);
    if (typed.trim() !== q) setTyped(q);
  }
  useEffect(() => {
    const next = typed.trim().slice(0, SEARCH_MAX_LENGTH);
    if (next === q) return;
    const timer = setTimeout(
      () =>
        setParams(
          (current) => {
            const updated = new URLSearchParams(current);
            if (next) updated.set('q', next);
            else updated.delete('q');
            // Another search starts at the first page.
            updated.delete('page');
            return updated;
          },
          { replace: true },
        ),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [typed, q, setParams]);
  return { q, typed, type: setTyped };
}

/** A search's words, as the quick-search rule splits them. */
export const wordsOf = (q: string) => q.split(/\s+/).filter(Boolean);
