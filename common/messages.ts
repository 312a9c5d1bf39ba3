/**
 * The texts the server writes (its error messages, in English, as the API sends them) and
 * the developer console's context messages the spec fixes. What the screens show is in the
 * client's catalogues (`src/i18n/locales`), which also translate these server sentences.
 */
export const messages = {
  requestCanceled: 'Request canceled',

  auth: {
    registerContext: 'Error registering with email',
    googleContext: 'Error triggering Google registration',
    passkeyContext: 'Error signing in with a passkey',
  },
  account: {
    fetchContext: 'Error fetching your sign-in settings',
    authenticatorContext: 'Error changing your authenticator app',
    passkeyContext: 'Error changing your passkeys',
    tokenContext: 'Error changing your access tokens',
  },
  books: {
    /** A book's author when it has none (spec section 3), in the list and from a lookup. */
    unknownAuthor: 'unknown author',
    fetchContext: 'Error fetching books',
    lookupContext: 'Error calling book API',
    updateContext: 'Error updating book',
    deleteContext: 'Error deleting books',
    addContext: 'Error adding book',
    restoreContext: 'Error restoring book',
  },
  entities: {
    restoreContext: 'Error restoring entity',
    addFailed: 'Error adding entity',
    saveFailed: 'Error editing entity',
    policiesFailed: 'Error saving record policies',
    fetchContext: 'Error fetching entities',
    deleteContext: 'Error deleting entity',
  },
  audit: {
    fetchContext: 'Error fetching the audit log',
  },
  records: {
    fetchContext: 'Error fetching records',
    saveContext: 'Error saving record',
    deleteContext: 'Error deleting record',
    restoreContext: 'Error restoring record',
  },
  jobs: {
    fetchContext: 'Error fetching jobs:',
    detailsContext: 'Error fetching job details:',
  },
  views: {
    saveContext: 'Error saving the view',
  },

  users: {
    cannotDeleteAdmin: 'Cannot delete admin. Good try.',
    fetchContext: 'Error fetching users',
    fetchOneContext: 'Error fetching user:',
    addContext: 'Error adding users',
    editContext: 'Error editing user',
    deleteContext: 'Error deleting user',
    /** Not in the spec: the context of a refused password change (admin action on /users). */
    setPasswordContext: 'Error setting password',
    resetFactorsContext: 'Error resetting second factors',
  },
  roles: {
    fetchContext: 'Error fetching roles',
    fetchOneContext: 'Error fetching role',
    addContext: 'Error adding role',
    deleteContext: 'Error deleting roles',
    editUsersContext: 'Error editing user roles',
    secondFactorContext: 'Error changing the role',
  },
  permissions: {
    fetchContext: 'Error getting routes',
    editContext: 'Error editing route',
  },
  /** The client's own sentences, beyond the spec's. */
  client: {
    exportContext: (what: string) => `Error exporting the ${what}`,
    importContext: (what: string) => `Error importing the ${what}`,
    undoContext: 'Error undoing the delete',
  },

  /** Validation messages of the shared text types (`common/schemas/text.ts`). */
  validation: {
    controlCharacters: 'must not contain control characters',
    invisibleCharacters: 'must not contain invisible or text-direction characters',
    mixedScripts:
      'must be written in one common script: letters that look like those of another script (such as Cyrillic in a Latin name) are refused',
  },

  /** What is wrong with a record policy's part (`PUT /api/entities/{id}/policies`). */
  policy: {
    adminRole: 'is the admin role, which always reads and changes every record',
    notAField: 'is not a field of this entity',
    ordered: 'compares numbers, dates and times only',
    list: 'must be a list of values',
    oneValue: 'must be one value',
    meIsAUser: 'stands for the user: compare it with the creator or a text field',
    creator: 'must be $me or the id of a user',
    roleTwice: 'has a policy already',
    oneClause: 'must have at least one clause',
    allOrAny: 'must be all or any',
    restriction: 'must be hidden or readOnly',
  },

  server: {
    invalidCredentials: 'Invalid username or password',
    signInRequired: 'You must be signed in to do this',
    invalidAccessToken: 'Your session is invalid or has expired; sign in again',
    invalidDownloadLink: 'This download link is not valid or has expired; export again',
    bulkRefused: (count: number) =>
      `Nothing was changed: ${count} ${count === 1 ? 'item was' : 'items were'} refused`,
    tooManyForBulk: (max: number) =>
      `More than ${max.toLocaleString('en')} records match; narrow the search or filter`,
    recordGone: 'This record is gone (deleted meanwhile)',
    policyDenied: (action: string, roles: string[]) =>
      `The ${action} policy of your roles (${roles.join(', ')}) does not allow this record`,
    policyDeniedResult: (action: string, roles: string[]) =>
      `The ${action} policy of your roles (${roles.join(', ')}) does not allow the record this would make`,
    notAPreviewRole: 'is not a role to preview',
    previewAdminsOnly: 'Only admins may preview the screens as a role',
    policyFields: (fields: string[], roles: string[]) =>
      `Your roles (${roles.join(', ')}) may not set ${fields.join(', ')}`,
    importStopped: 'The import was stopped before it finished: nothing was written',
    rowWidth: (cells: number, headings: number) =>
      `has ${cells} ${cells === 1 ? 'cell' : 'cells'} where the headings name ${headings}: a cell missing, or a comma too many?`,
    linkedMeanwhile: 'A record was linked to one of these meanwhile; try again',
    noHistory: 'This item has no history here',
    notDeleted: 'This item is not deleted (restored meanwhile?)',
    pointsAtDeleted: (field: string, target: string) =>
      `Its records' ${field} names records of ${target} deleted since; restore those first`,
    forbidden: 'You are not allowed to perform this action',
    invalidRefreshToken: 'This refresh token is invalid, expired or revoked; sign in again',
    emailTaken: 'An account with this email already exists',
    tooManyAttempts: (seconds: number) => `Too many attempts; try again in ${seconds} s`,
    signInExpired: 'This sign-in has expired or had too many attempts; sign in again',
    invalidSecondFactor: 'This code is not valid (or was already used)',
    invalidPasskey: 'This passkey could not be verified',
    passkeysUnavailable:
      'Passkeys need the site to be opened by its name (PUBLIC_URL), not by an IP address',
    authenticatorAlreadyOn: 'An authenticator app is already set up; turn it off first',
    secondFactorRequired:
      'A role of this account requires a second factor: set up another one before removing this one',
    tokenScope: 'This access token may not call this route',
    tokenScopeSessionOnly: 'Access tokens cannot call this route; sign in instead',
    accessTokenNameTaken: 'You already have an access token with this name',
    routeNotAllowed: 'is not a route you may call',
    resetOwnFactors:
      'Your own second factors are changed on your Security page, with a current code',
    recentSignInRequired: (minutes: number) =>
      `For this, sign in again: it needs a sign-in of the last ${minutes} minutes`,
    googleNotConfigured:
      'Google sign-in is not configured on this server (set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET)',
    googleUnavailable: 'The Google sign-in service could not be reached',
    unknownRoles: (names: string[]) => `Unknown roles: ${names.join(', ')}`,
    adminKeepsRoutes: 'The admin role must keep access to the routes screen',
    usernameTaken: 'This username is taken (capitals and look-alike forms count as the same name)',
    roleNameTaken: 'A role with this name exists (capitals count as the same name)',
    viewNameTaken: 'You have a view of this name on this list',
    roleViewNameTaken: 'This role has a view of this name on this list',
    tooManyViews: (max: number) => `A list keeps at most ${max} saved views; delete one first`,
    entityNameTaken: 'An entity with this name exists',
    recordIdTaken: 'A record with this id exists',
    notUnique: (label: string) => `Another record has this ${label}`,
    referenced: (count: number) =>
      `${count} ${count === 1 ? 'record points' : 'records point'} at this; remove ${count === 1 ? 'that link' : 'those links'} first`,
    entityReferenced: (fields: string[]) =>
      `Relations point at this entity (${fields.join(', ')}); remove them first`,
    noSuchEntity: 'There is no entity of this name',
    definitionConflict:
      'Some records cannot follow this change (a value that does not convert, an empty required field or a repeated unique value); nothing was changed',
    conflict: 'This conflicts with existing data',
    versionConflict: 'Someone else changed this item since you opened it',
    badIfMatch: 'must be a version in quotes, such as "3"',
    adminUserProtected: 'The admin user cannot be deleted or renamed',
    lastAdmin: 'At least one user must keep the admin role',
    adminRoleProtected: 'The admin role cannot be deleted',
    notFound: 'Not found',
    apiRouteNotFound: 'There is no such API route',
    internal: 'Something went wrong on our side. Please try again later.',
    invalidRequest: 'The request is invalid',
    // The framework's own refusals: fixed texts, never a part of the request.
    malformedRequest: 'The request could not be read (malformed JSON, URL or body)',
    payloadTooLarge: 'The request body is too large',
    uriTooLong: 'A part of the URL is too long',
    unsupportedMediaType: 'The request body is of a type this route does not take',
    headersTooLarge: 'The URL or the headers of the request are too large',
    databaseUnavailable: 'The database is not reachable',
    overloaded: 'The server is too busy right now; try again in a few seconds',
    clientNotBuilt: 'The web app is not built: run `npm run build`',
  },
} as const;
