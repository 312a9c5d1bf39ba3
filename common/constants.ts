/** Demo accounts seeded on first start and shown on the home page. */
export const DEMO_ACCOUNTS = [
  { username: 'viewer', password: 'viewer123', role: 'viewer' },
  { username: 'contributor', password: 'contributor123', role: 'contributor' },
] as const;

/** The roles every installation starts with. */
export const DEFAULT_ROLES = ['admin', 'contributor', 'viewer'] as const;

/** Name of the role that may do everything, and of the seeded administrator account. */
export const ADMIN_ROLE = 'admin';
export const ADMIN_USERNAME = 'admin';

/** Access token life, in seconds (spec section 9: 5 minutes). */
export const ACCESS_TOKEN_LIFE_SECONDS = 5 * 60;

/** Book list paging (spec section 9): 1-indexed pages of 10. */
export const BOOK_PAGE_SIZE = 10;

/** Version histories load this many versions at a time, newest first. */
export const VERSION_PAGE_SIZE = 20;
/** The "Recently deleted" lists show at most this many items, most recent first. */
export const RECENTLY_DELETED_LIMIT = 50;

/** The audit log's page size, and how far its total is counted exactly. */
export const AUDIT_PAGE_SIZE = 25;
export const AUDIT_COUNT_LIMIT = 10_000;

/** Job list paging (spec section 9). */
export const JOB_PAGE_SIZES = [20, 50, 100] as const;
export const DEFAULT_JOB_PAGE_SIZE = 50;
/** The highest page number the job list takes (a page past the last answers the last). */
export const JOB_MAX_PAGE = 1_000_000_000;
/** The longest job filter the list accepts. */
export const JOB_FILTER_MAX_LENGTH = 200;

/** Category given to an entity definition that names none. */
export const DEFAULT_ENTITY_CATEGORY = 'Generic';

/** How long toasts stay on screen, in milliseconds (spec sections 8 and 9). */
export const ERROR_TOAST_MS = 2000;
export const TOAST_MS = 3000;
/** How long a delete's toast offers Undo. */
export const UNDO_TOAST_MS = 5000;

/** Distance from the bottom of the page, in pixels, at which the next book page loads. */
export const INFINITE_SCROLL_THRESHOLD_PX = 100;

/** The /mexico countdown: its target (5 January 2024, 10:00 local time) and its grid. */
export const COUNTDOWN_TARGET = { year: 2024, monthIndex: 0, day: 5, hour: 10 } as const;
export const COUNTDOWN_DAYS = 96;
export const COUNTDOWN_CELLS_PER_ROW = 16;

/** The footer's link to the developer's site (its text: the catalogues' `shell.developerSite`). */
export const DEVELOPER_SITE = { url: 'https://example.com/' } as const;

/** An editor repeats its presence this often while editing (DESIGN, Live updates). */
export const PRESENCE_BEAT_MS = 10_000;
/** A presence not repeated for this long has expired: the editor left without a word. */
export const PRESENCE_TTL_MS = 30_000;

/** A records page's default size (`perPage`, 1 to 100). */
export const RECORD_PAGE_SIZE = 50;

/** A records page's total is counted exactly up to this many records. */
export const RECORD_EXACT_TOTAL = 10_000;

/** The most items one bulk action changes (narrow the filter for more). */
export const BULK_MAX_ITEMS = 10_000;

/**
 * Adding a sign-in credential (an authenticator app, a passkey, an access token) needs a
 * sign-in of the last this many minutes: a stolen session cannot make itself a lasting one.
 */
export const RECENT_SIGN_IN_MINUTES = 10;

/**
 * The request header with which an admin sees the product as a role would (the preview): the
 * server honours it for admins only, and ignores it from anyone else.
 */
export const PREVIEW_ROLE_HEADER = 'x-preview-role';
