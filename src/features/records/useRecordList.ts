import type { GridFilterModel, GridSortModel } from '@mui/x-data-grid';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useListParams } from '@/hooks/useListParams';
import { RECORD_PAGE_SIZE } from '@common/constants';
import type { Entity } from '@common/schemas/entities';
import { withLayoutOf } from '@/lib/gridLayout';
import { useListRecordPageQuery } from './records.api';
import {
  RECORD_PAGE_SIZES,
  RECORD_SEARCH_MAX_LENGTH,
  type RecordFilter,
  type RecordView,
  gridFilterItem,
  paramsFromView,
  viewFromParams,
} from './recordListState';

/** How long typing (in the search box or a filter's value) pauses before it is sent. */
export const TYPING_DELAY_MS = 300;

/** The filter of the grid's model (its columns are `value:<name>`), if any. */
function filterOfModel(model: GridFilterModel): RecordFilter | undefined {
  const item = model.items[0];
  return (
    item && { field: item.field.replace(/^value:/, ''), operator: item.operator, value: item.value }
  );
}

const modelOf = (filter?: RecordFilter): GridFilterModel => ({
  items: filter ? [gridFilterItem(filter)] : [],
});

/**
 * The record grid's list (ra-core's `useListController`): the view in the URL, the page the
 * server answers for it, and the grid's server-mode paging, sorting and filtering. Typing (the
 * quick search, a filter's value) reaches the URL once it pauses; another search, filter,
 * sort or page size starts again at page 1.
 */
export function useRecordList(entity: Entity) {
  const { fields } = entity;
  const [params, setParams] = useListParams();
  const view = useMemo(() => viewFromParams(fields, params), [fields, params]);
  const request = paramsFromView(fields, view, true).toString();
  const pageQuery = useListRecordPageQuery({ entityName: entity.name, query: request });

  // A page, size or sort picked is a step Back returns from; typing is not.
  const show = (next: RecordView, replace = false) =>
    setParams(paramsFromView(fields, next), { replace });

  // The URL shows the view as it is read: what it could not use is not left in it.
  const canonical = withLayoutOf(params, paramsFromView(fields, view)).toString();
  useEffect(() => {
    if (params.toString() !== canonical)
      setParams(new URLSearchParams(canonical), { replace: true });
  }, [params, canonical, setParams]);

  /** A filter as the request words it: incomplete ones ask for nothing. */
  const filterKey = useCallback(
    (filter?: RecordFilter) =>
      paramsFromView(fields, { page: 1, perPage: RECORD_PAGE_SIZE, q: '', filter }).toString(),
    [fields],
  );

  // What is typed; a search or a filter that comes from the URL (Back, a link) replaces it.
  const [typedSearch, setTypedSearch] = useState(view.q);
  const [filterModel, setFilterModel] = useState(() => modelOf(view.filter));
  const [fromUrl, setFromUrl] = useState({ q: view.q, filter: filterKey(view.filter) });
  const urlFilter = filterKey(view.filter);
  if (fromUrl.q !== view.q || fromUrl.filter !== urlFilter) {
    setFromUrl({ q: view.q, filter: urlFilter });
    if (typedSearch.trim() !== view.q) setTypedSearch(view.q);
    if (filterKey(filterOfModel(filterModel)) !== urlFilter) setFilterModel(modelOf(view.filter));
  }

  // Typing is sent once it pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      const q = typedSearch.trim().slice(0, RECORD_SEARCH_MAX_LENGTH);
      const filter = filterOfModel(filterModel);
      if (q !== view.q || filterKey(filter) !== filterKey(view.filter))
        setParams(paramsFromView(fields, { ...view, q, filter, page: 1 }), { replace: true });
    }, TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typedSearch, filterModel, view, fields, filterKey, setParams]);

  // A page past the last (an old link, an estimated total's end): the last page.
  const answer = pageQuery.currentData;
  useEffect(() => {
    if (!answer || answer.records.length > 0 || view.page === 1 || answer.total === 0) return;
    const last = Math.max(1, Math.ceil(answer.total / view.perPage));
    if (last < view.page)
      setParams(paramsFromView(fields, { ...view, page: last }), { replace: true });
  }, [answer, view, fields, setParams]);

  // The same objects while the view stands: a new sort model is a change of sort.
  const sortModel = useMemo<GridSortModel>(
    () => (view.sort ? [{ field: `value:${view.sort.field}`, sort: view.sort.sort }] : []),
    [view.sort],
  );
  const paginationModel = useMemo(
    () => ({ page: view.page - 1, pageSize: view.perPage }),
    [view.page, view.perPage],
  );

  // An export takes the view's search, filter and sort, all pages.
  const exportParams = useMemo(() => {
    const all = paramsFromView(fields, { ...view, page: 1, perPage: RECORD_PAGE_SIZE });
    return Object.fromEntries(all);
  }, [fields, view]);

  return {
    view,
    pageQuery,
    exportParams,
    search: { typed: typedSearch, type: setTypedSearch },
    gridProps: {
      paginationMode: 'server' as const,
      sortingMode: 'server' as const,
      filterMode: 'server' as const,
      loading: pageQuery.isFetching,
      rowCount: pageQuery.data?.total ?? 0,
      pageSizeOptions: [...RECORD_PAGE_SIZES],
      paginationModel,
      onPaginationModelChange: ({ page, pageSize }: { page: number; pageSize: number }) =>
        show(
          pageSize !== view.perPage
            ? { ...view, perPage: pageSize, page: 1 }
            : { ...view, page: page + 1 },
        ),
      sortingOrder: ['asc' as const, 'desc' as const, null],
      sortModel,
      onSortModelChange: (model: GridSortModel) => {
        const [first] = model;
        show({
          ...view,
          page: 1,
          sort: first?.sort
            ? { field: first.field.replace(/^value:/, ''), sort: first.sort }
            : undefined,
        });
      },
      filterModel,
      onFilterModelChange: setFilterModel,
    },
  };
}

export type RecordListController = ReturnType<typeof useRecordList>;
