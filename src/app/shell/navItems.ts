/** A link of the navigation. */
export interface NavItem {
  label: string;
  to: string;
}

/** The links of the Experimental dropdown (spec section 2). */
export const EXPERIMENTAL_ITEMS: NavItem[] = [{ label: 'Job', to: '/lims/jobs' }];

/** The Entities dropdown's first link; the entities follow, grouped by category. */
export const MANAGE_ENTITIES: NavItem = { label: 'Manage...', to: '/entities' };

/** Where the main navigation's plain links go, for a signed-in user (spec section 2). */
export const SIGNED_IN_LINKS = {
  roles: { label: 'Roles', to: '/roles' },
  users: { label: 'Users', to: '/users' },
  routes: { label: 'Routes', to: '/routes' },
  audit: { label: 'Audit', to: '/audit' },
  account: { label: 'Security', to: '/account' },
} satisfies Record<string, NavItem>;
