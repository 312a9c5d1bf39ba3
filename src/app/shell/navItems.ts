import type { MessageId } from '@/i18n/i18n';

/** A link of the navigation: its text's message, and where it goes. */
export interface NavItem {
  label: MessageId;
  to: string;
}

/** The links of the Experimental dropdown (spec section 2). */
export const EXPERIMENTAL_ITEMS: NavItem[] = [{ label: 'shell.jobs', to: '/lims/jobs' }];

/** The Entities dropdown's first link; the entities follow, grouped by category. */
export const MANAGE_ENTITIES: NavItem = { label: 'shell.manageEntities', to: '/entities' };

/** Where the main navigation's plain links go, for a signed-in user (spec section 2). */
export const SIGNED_IN_LINKS = {
  roles: { label: 'shell.roles', to: '/roles' },
  users: { label: 'shell.users', to: '/users' },
  routes: { label: 'shell.routes', to: '/routes' },
  audit: { label: 'shell.audit', to: '/audit' },
  account: { label: 'shell.security', to: '/account' },
} satisfies Record<string, NavItem>;

/** The links every visitor has: home, and the sign-in page until signed in. */
export const HOME: NavItem = { label: 'shell.home', to: '/' };
export const LOGIN: NavItem = { label: 'shell.login', to: '/login' };
