import { useCallback } from 'react';
import { type NavigateOptions, useSearchParams } from 'react-router-dom';
import { withLayoutOf } from '@/lib/gridLayout';

/**
 * A list's URL parameters, for a list that writes its whole view at once (page, sort,
 * filter): what it writes keeps the grid's column layout (`useGridLayout`) as it is.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const setListParams = useCallback(
    (next: URLSearchParams, options?: NavigateOptions) =>
      setParams((current) => withLayoutOf(current, next), options),
    [setParams],
  );
  return [params, setListParams] as const;
}
