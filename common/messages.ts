/**
 * The message catalogue: every text the product shows or logs that the spec fixes,
 * and the server's error messages. One place, so the client, the server and the tests agree.
 */
export const messages = {
  banner:
    'This is a development server. It could be wiped out, changed, down, etc. Do not use sensitive information nor rely on storing data!',
  brand: 'An Experimentation',

  shell: {
    /** The navigation's toggle of the dark colour scheme. */
    darkTheme: 'Dark theme',
  },

  toast: {
    sessionExpired: 'Session expired',
    notAllowed: 'You are not allowed to perform this action',
    notFound: 'Whatever you requested is not here.',
    /** A save or restore based on a version someone else has replaced meanwhile. */
    versionConflict: 'Someone else changed this item meanwhile: look at it again, then retry.',
  },
  requestCanceled: 'Request canceled',

  errorBoundary: {
    title: 'Oops! Something went wrong.',
    body: "We're sorry, but an error occurred while rendering this component.",
  },
  routerError: 'Unexpected Application Error!',

  auth: {
    loginFailed: 'Authentication failed. Please check your credentials.',
    registerContext: 'Error registering with email',
    googleContext: 'Error triggering Google registration',
    loggingInWithGoogle: 'Logging in with Google...',
    forgotPasswordTitle: 'Forgot your password?',
    forgotPasswordHelp:
      'Passwords are reset by an administrator of this site. Ask one to set a new password for your account, then sign in with it.',
    secondStepTitle: 'Second step',
    secondStepHelp:
      'Type the 6-digit code your authenticator app shows, or one of your recovery codes.',
    enrolHelp:
      'A role of your account requires a second factor. Scan this QR code with an authenticator app (or type the secret), then type the code it shows.',
    codeFailed: 'This code is not valid (or was already used).',
    signInExpired: 'This sign-in has expired. Sign in again.',
    passkeyFailed: 'The passkey was not used, or could not be verified.',
    passkeyOnThisDevice: 'This device already has a passkey for your account.',
    passkeyNeedsName:
      'Passkeys need the site opened by its name (for example http://localhost:PORT), not by an IP address.',
    passkeyOnlyHelp: 'Your account signs in with a passkey after the password.',
    passkeyContext: 'Error signing in with a passkey',
    recoveryCodesHelp:
      'Keep these recovery codes somewhere safe: each one signs you in once if you lose your authenticator app. They are shown only now.',
  },
  account: {
    fetchContext: 'Error fetching your sign-in settings',
    authenticatorContext: 'Error changing your authenticator app',
    passkeyContext: 'Error changing your passkeys',
    tokenContext: 'Error changing your access tokens',
    authenticatorOn: 'Authenticator app turned on',
    authenticatorOff: 'Authenticator app turned off',
    passkeyAdded: (name: string) => `Passkey ${name} added`,
    passkeyRemoved: (name: string) => `Passkey ${name} removed`,
    tokenRevoked: (name: string) => `Access token ${name} revoked`,
    tokenShownOnce:
      'Copy this token now: it is shown only once. Use it as "Authorization: Bearer <token>".',
    required: 'A role of yours requires a second factor: keep at least one.',
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
    restored: 'Entity restored: the form shows the restored version.',
    added: 'Entity added successfully!',
    addFailed: 'Error adding entity',
    saved: 'Entity saved successfully!',
    saveFailed: 'Error editing entity',
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
    /** A new record is saved (it may sort onto another page). */
    added: 'Record added',
  },
  jobs: {
    fetchContext: 'Error fetching jobs:',
    detailsContext: 'Error fetching job details:',
    noData: 'No job data available',
  },
  views: {
    saveContext: 'Error saving the view',
    saved: (name: string) => `Saved the view ${name}`,
    deleted: (name: string) => `Deleted the view ${name}`,
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
    passwordSet: (username: string) => `Password set; ${username} was signed out everywhere`,
    deleteOwn: (username: string) =>
      `Delete ${username}? It is your own account: you will be signed out, and cannot undo it.`,
    resetFactorsContext: 'Error resetting second factors',
    resetFactors: (username: string) =>
      `Reset the second factors of ${username}? Their authenticator app, recovery codes and passkeys stop working; they sign in with their password (and set up a new factor if a role requires one).`,
    factorsReset: (username: string) => `Second factors of ${username} reset`,
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
    checkInput: 'Some fields are not valid; check the form.',
    needsRole:
      'Your account has no role yet: an administrator must give you one before you can use these pages.',
    roleDoesNotAllow: (what: string) => `Your role does not allow ${what}.`,
    loadFailed: (what: string) => `The ${what} could not be loaded.`,
    loading: (what: string) => `Loading ${what}`,
    retry: 'Retry',
    exportContext: (what: string) => `Error exporting the ${what}`,
    exportStarted: (what: string) => `Exporting the ${what}: your browser is saving the file`,
    importCut:
      'The connection was lost during the import; it may still finish: look at the list in a moment',
    importContext: (what: string) => `Error importing the ${what}`,
    importNoHeadings:
      'This file has no headings: its first row must name its columns (a CSV file, separated by commas)',
    undo: 'Undo',
    undoContext: 'Error undoing the delete',
    undone: 'Undone: it is back',
    /** A delete's question, saying so when its toast will offer Undo. */
    undoable: (question: string, mayUndo: boolean) =>
      mayUndo ? `${question} You can undo it for a few seconds.` : question,
  },

  /** Validation messages of the shared text types (`common/schemas/text.ts`). */
  validation: {
    controlCharacters: 'must not contain control characters',
    invisibleCharacters: 'must not contain invisible or text-direction characters',
    mixedScripts:
      'must be written in one common script: letters that look like those of another script (such as Cyrillic in a Latin name) are refused',
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
