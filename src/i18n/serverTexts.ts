import { i18n, type MessageId, type MessageValues } from './i18n';

/**
 * The server's sentences (`common/messages.ts`: error messages, the shared schemas'
 * validation messages) in the language in effect. The API writes them in English, with
 * their details (a count, a field, a number of seconds) inside the sentence: each rule below
 * recognises one, and its named groups fill the catalogue message's placeholders (digits
 * become numbers, for plurals and separators). A sentence no rule knows stays as the
 * server wrote it; a test holds every server message to a rule.
 */
const RULES: [RegExp, MessageId][] = [
  [/^is required$/, 'validation.required'],
  [/^must not be empty$/, 'validation.notEmpty'],
  [/^must be at most (?<max>[\d,]+) characters$/, 'validation.maxChars'],
  [/^must be at least (?<min>[\d,]+) characters$/, 'validation.minChars'],
  [/^must be at most (?<max>[\d,]+) options$/, 'validation.maxOptions'],
  [/^must be at most (?<max>[\d,]+)$/, 'validation.atMost'],
  [/^must be at least (?<min>[\d,]+)$/, 'validation.atLeast'],
  [/^must be between (?<min>[\d,]+) and (?<max>[\d,]+)$/, 'validation.between'],
  [/^must be more than 0$/, 'validation.moreThanZero'],
  [/^must be 0 or more$/, 'validation.zeroOrMore'],
  [/^is too small$/, 'validation.tooSmall'],
  [/^is too large$/, 'validation.tooLarge'],
  [/^must be a whole number$/, 'validation.wholeNumber'],
  [/^must be a number$/, 'validation.number'],
  [/^must be true or false$/, 'validation.trueOrFalse'],
  [/^must be yes or no \(or true, false, 1, 0\)$/, 'validation.yesOrNo'],
  [/^must be (a valid|an) email address$/, 'validation.email'],
  [/^must be a web address( \(http or https\))?$/, 'validation.webAddress'],
  [/^must be a valid ISBN-10 or ISBN-13$/, 'validation.isbn'],
  [/^must be a date such as 2026-11-26$/, 'validation.date'],
  [/^must not contain spaces$/, 'validation.noSpaces'],
  [/^may only hold letters, digits, _ and -$/, 'validation.identifierDash'],
  [/^may only hold letters, digits and _$/, 'validation.identifier'],
  [/^must have at least one field$/, 'validation.oneField'],
  [/^must be at least 1 day$/, 'validation.oneDay'],
  [/^must be a whole number of days$/, 'validation.wholeDays'],
  [/^is taken by another record$/, 'validation.unique'],
  [/^must not contain control characters$/, 'validation.controlCharacters'],
  [/^must not contain invisible or text-direction characters$/, 'validation.invisibleCharacters'],
  [
    /^must be written in one common script: letters that look like those of another script \(such as Cyrillic in a Latin name\) are refused$/,
    'validation.mixedScripts',
  ],
  [/^is not a route you may call$/, 'validation.routeNotAllowed'],
  [/^must be a version in quotes, such as "3"$/, 'validation.badIfMatch'],
  [/^must be unique$/, 'validation.mustBeUnique'],
  [/^a (?<type>\w+) field cannot be unique$/, 'validation.notUniqueType'],
  [/^cannot be converted$/, 'validation.cannotConvert'],
  [/^is not a role$/, 'validation.notARole'],
  [/^is not the id of a user$/, 'validation.notAUser'],
  [/^is only set for new users$/, 'validation.newUsersOnly'],
  [/^is the id of line (?<line>[\d,]+) too$/, 'validation.idOfLineToo'],
  [/^must be a record id( \(a UUID\))?$/, 'validation.recordId'],
  [/^must be the id of a record of (?<target>.+)$/, 'validation.recordOf'],
  [/^must be the id of a record$/, 'validation.aRecord'],
  [
    /^must be a date and time with its time zone, such as 2026-11-26T14:30:00Z or 2026-11-26T15:30:00\+01:00$/,
    'validation.dateTimeZone',
  ],
  [/^must be a date and time \(ISO 8601\)$/, 'validation.dateTime'],
  [/^must be a number of days$/, 'validation.days'],
  [/^must be at most (?<max>[\d,]+) days$/, 'validation.maxDays'],
  [/^must change the name or the query$/, 'validation.changeView'],
  [/^must not start with \?$/, 'validation.noQuestionMark'],
  [/^must be one of the fields$/, 'validation.oneOfFields'],
  [
    /^is the admin role, which always reads and changes every record$/,
    'validation.policyAdminRole',
  ],
  [/^is not a field of this entity$/, 'validation.policyNotAField'],
  [/^compares numbers, dates and times only$/, 'validation.policyOrdered'],
  [/^must be a list of values$/, 'validation.policyList'],
  [/^must be one value$/, 'validation.policyOneValue'],
  [
    /^stands for the user: compare it with the creator or a text field$/,
    'validation.policyMeIsAUser',
  ],
  [/^must be \$me or the id of a user$/, 'validation.policyCreator'],
  [/^has a policy already$/, 'validation.policyRoleTwice'],
  [/^must have at least one clause$/, 'validation.policyOneClause'],
  [/^must be all or any$/, 'validation.policyAllOrAny'],
  [/^must be hidden or readOnly$/, 'validation.policyRestriction'],
  [/^must be one of:? (?<options>.+?)( for this field)?$/, 'validation.oneOf'],
  [/^must name at least one (?<what>field|record|route|user)$/, 'validation.nameOne'],
  [/^must name at most (?<max>[\d,]+) (?<what>records|users)$/, 'validation.nameAtMost'],
  [/^a relation needs the entity it points at$/, 'validation.relationTarget'],
  [/^a select needs at least one option$/, 'validation.selectNeedsOption'],
  [/^only a select has options$/, 'validation.onlySelectOptions'],
  [/^only a relation has a target$/, 'validation.onlyRelationTarget'],
  [/^a relation or unique field has no default$/, 'validation.noDefault'],
  [/^Invalid username or password$/, 'errors.invalidCredentials'],
  [/^You must be signed in to do this$/, 'errors.signInRequired'],
  [/^Your session is invalid or has expired; sign in again$/, 'errors.invalidAccessToken'],
  [/^This download link is not valid or has expired; export again$/, 'errors.invalidDownloadLink'],
  [/^Nothing was changed: (?<count>[\d,]+) items? (was|were) refused$/, 'errors.bulkRefused'],
  [
    /^More than (?<max>[\d,]+) records match; narrow the search or filter$/,
    'errors.tooManyForBulk',
  ],
  [/^This record is gone \(deleted meanwhile\)$/, 'errors.recordGone'],
  [
    /^The (?<action>\w+) policy of your roles \((?<roles>.+)\) does not allow this record$/,
    'errors.policyDenied',
  ],
  [
    /^The (?<action>\w+) policy of your roles \((?<roles>.+)\) does not allow the record this would make$/,
    'errors.policyDeniedResult',
  ],
  [/^Your roles \((?<roles>.+)\) may not set (?<fields>.+)$/, 'errors.policyFields'],
  [/^Only admins may preview the screens as a role$/, 'errors.previewAdminsOnly'],
  [/^is not a role to preview$/, 'validation.notAPreviewRole'],
  [/^The import was stopped before it finished: nothing was written$/, 'import.stopped'],
  [
    /^has (?<cells>[\d,]+) cells? where the headings name (?<headings>[\d,]+): a cell missing, or a comma too many\?$/,
    'errors.rowWidth',
  ],
  [/^A record was linked to one of these meanwhile; try again$/, 'errors.linkedMeanwhile'],
  [/^This item has no history here$/, 'errors.noHistory'],
  [/^This item is not deleted \(restored meanwhile\?\)$/, 'errors.notDeleted'],
  [
    /^Its records' (?<field>.+) names records of (?<target>.+) deleted since; restore those first$/,
    'errors.pointsAtDeleted',
  ],
  [/^You are not allowed to perform this action$/, 'errors.forbidden'],
  [
    /^This refresh token is invalid, expired or revoked; sign in again$/,
    'errors.invalidRefreshToken',
  ],
  [/^An account with this email already exists$/, 'errors.emailTaken'],
  [/^Too many attempts; try again in (?<seconds>[\d,]+) s$/, 'errors.tooManyAttempts'],
  [/^This sign-in has expired or had too many attempts; sign in again$/, 'errors.signInExpired'],
  [/^This code is not valid \(or was already used\)$/, 'errors.invalidSecondFactor'],
  [/^This passkey could not be verified$/, 'errors.invalidPasskey'],
  [
    /^Passkeys need the site to be opened by its name \(PUBLIC_URL\), not by an IP address$/,
    'errors.passkeysUnavailable',
  ],
  [/^An authenticator app is already set up; turn it off first$/, 'errors.authenticatorAlreadyOn'],
  [
    /^A role of this account requires a second factor: set up another one before removing this one$/,
    'errors.secondFactorRequired',
  ],
  [/^This access token may not call this route$/, 'errors.tokenScope'],
  [/^Access tokens cannot call this route; sign in instead$/, 'errors.tokenScopeSessionOnly'],
  [/^You already have an access token with this name$/, 'errors.accessTokenNameTaken'],
  [
    /^Your own second factors are changed on your Security page, with a current code$/,
    'errors.resetOwnFactors',
  ],
  [
    /^For this, sign in again: it needs a sign-in of the last (?<minutes>[\d,]+) minutes$/,
    'errors.recentSignInRequired',
  ],
  [
    /^Google sign-in is not configured on this server \(set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET\)$/,
    'errors.googleNotConfigured',
  ],
  [/^The Google sign-in service could not be reached$/, 'errors.googleUnavailable'],
  [/^Unknown roles: (?<names>.+)$/, 'errors.unknownRoles'],
  [/^The admin role must keep access to the routes screen$/, 'errors.adminKeepsRoutes'],
  [
    /^This username is taken \(capitals and look-alike forms count as the same name\)$/,
    'errors.usernameTaken',
  ],
  [/^A role with this name exists \(capitals count as the same name\)$/, 'errors.roleNameTaken'],
  [/^You have a view of this name on this list$/, 'errors.viewNameTaken'],
  [/^This role has a view of this name on this list$/, 'errors.roleViewNameTaken'],
  [/^A list keeps at most (?<max>[\d,]+) saved views; delete one first$/, 'errors.tooManyViews'],
  [/^An entity with this name exists$/, 'errors.entityNameTaken'],
  [/^A record with this id exists$/, 'errors.recordIdTaken'],
  [/^Another record has this (?<label>.+)$/, 'errors.notUnique'],
  [
    /^(?<count>[\d,]+) records? points? at this; remove (that|those) links? first$/,
    'errors.referenced',
  ],
  [
    /^Relations point at this entity \((?<fields>.+)\); remove them first$/,
    'errors.entityReferenced',
  ],
  [/^There is no entity of this name$/, 'errors.noSuchEntity'],
  [
    /^Some records cannot follow this change \(a value that does not convert, an empty required field or a repeated unique value\); nothing was changed$/,
    'errors.definitionConflict',
  ],
  [/^This conflicts with existing data$/, 'errors.conflict'],
  [/^Someone else changed this item since you opened it$/, 'errors.versionConflict'],
  [/^The admin user cannot be deleted or renamed$/, 'errors.adminUserProtected'],
  [/^At least one user must keep the admin role$/, 'errors.lastAdmin'],
  [/^The admin role cannot be deleted$/, 'errors.adminRoleProtected'],
  [/^Not found$/, 'errors.notFound'],
  [/^There is no such API route$/, 'errors.apiRouteNotFound'],
  [/^Something went wrong on our side\. Please try again later\.$/, 'errors.internal'],
  [/^The request is invalid$/, 'errors.invalidRequest'],
  [/^The request could not be read \(malformed JSON, URL or body\)$/, 'errors.malformedRequest'],
  [/^The request body is too large$/, 'errors.payloadTooLarge'],
  [/^A part of the URL is too long$/, 'errors.uriTooLong'],
  [/^The request body is of a type this route does not take$/, 'errors.unsupportedMediaType'],
  [/^The URL or the headers of the request are too large$/, 'errors.headersTooLarge'],
  [/^The database is not reachable$/, 'errors.databaseUnavailable'],
  [/^The server is too busy right now; try again in a few seconds$/, 'errors.overloaded'],
  [/^The web app is not built: run `npm run build`$/, 'errors.clientNotBuilt'],
];

/** `message` (as the server or a shared schema wrote it) in the language in effect. */
export function localiseServerText(message: string): string {
  if (i18n.locale === 'en') return message;
  for (const [pattern, id] of RULES) {
    const match = pattern.exec(message);
    if (!match) continue;
    const values: MessageValues = {};
    for (const [name, value] of Object.entries(match.groups ?? {}))
      values[name] = /^[\d,]+$/.test(value) ? Number(value.replace(/,/g, '')) : value;
    return i18n._(id, values);
  }
  return message;
}
