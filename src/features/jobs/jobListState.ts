import {
  DEFAULT_JOB_PAGE_SIZE,
  JOB_FILTER_MAX_LENGTH,
  JOB_MAX_PAGE,
  JOB_PAGE_SIZES,
} from '@common/constants';
import { JOB_SORT_COLUMNS, type JobListQuery } from '@common/schemas/jobs';

/**
 * The job list's view (filter, page, size, sort) lives in the page's URL, so a link or a
 * reload shows the same view. These are its rules (spec section 4).
 */

/**
 * The view a URL describes; anything missing or invalid takes its default, and a page past
 * the highest the server takes is that page (the server then answers the last).
 */
export function viewFromParams(params: URLSearchParams): JobListQuery {
  const page = Number(params.get('page'));
  const perPage = Number(params.get('perPage'));
  const sortColumn = params.get('sortColumn') as JobListQuery['sortColumn'];
  return {
    filter: cleanFilter(params.get('filter') ?? ''),
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, JOB_MAX_PAGE) : 1,
    perPage: (JOB_PAGE_SIZES as readonly number[]).includes(perPage)
      ? perPage
      : DEFAULT_JOB_PAGE_SIZE,
    sortColumn: JOB_SORT_COLUMNS.includes(sortColumn) ? sortColumn : 'friendlyNumber',
    sortOrder: params.get('sortOrder') === 'desc' ? 'desc' : 'asc',
  };
}

/** The URL of a view, leaving defaults out. */
export function paramsFromView(view: JobListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (view.filter) params.set('filter', view.filter);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.perPage !== DEFAULT_JOB_PAGE_SIZE) params.set('perPage', String(view.perPage));
  if (view.sortColumn !== 'friendlyNumber') params.set('sortColumn', view.sortColumn);
  if (view.sortOrder !== 'asc') params.set('sortOrder', view.sortOrder);
  return params;
}

/**
 * Clicking a column: the same column toggles asc/desc; a new column starts asc. Another
 * order starts again at page 1 (where the grid goes too).
 */
export function sortedBy(view: JobListQuery, column: JobListQuery['sortColumn']): JobListQuery {
  const sortOrder = view.sortColumn === column && view.sortOrder === 'asc' ? 'desc' : 'asc';
  return { ...view, sortColumn: column, sortOrder, page: 1 };
}

/** Another page size starts again at page 1. */
export const withPageSize = (view: JobListQuery, perPage: number): JobListQuery =>
  perPage === view.perPage ? view : { ...view, perPage, page: 1 };

/** The filter as it is sent: without spaces around it, and no longer than the server takes. */
export const cleanFilter = (filter: string) => filter.trim().slice(0, JOB_FILTER_MAX_LENGTH);

/** Another filter starts again at page 1. */
export function withFilter(view: JobListQuery, typed: string): JobListQuery {
  const filter = cleanFilter(typed);
  return filter === view.filter ? view : { ...view, filter, page: 1 };
}
