/** The admin password the browser tests' server starts with. */
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password';
