import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { t } from '@/i18n/useT';
import {
  errorCode,
  errorMessage,
  fieldErrors,
  isRequestCanceled,
  requestCanceledError,
  toastForError,
  validationSentence,
} from '@/api/errors';

const failed = (status: number, data: unknown): FetchBaseQueryError => ({ status, data });
const invalidEmail = failed(400, {
  statusCode: 400,
  error: 'Bad Request',
  code: 'VALIDATION_FAILED',
  message: 'The request is invalid: body.email must be a valid email address',
  fields: [{ field: 'body.email', message: 'must be a valid email address' }],
});

describe('errorCode', () => {
  it('reads the code of an error body in the contract', () => {
    expect(errorCode(invalidEmail)).toBe('VALIDATION_FAILED');
  });

  it.each([
    ['a body without a code', failed(500, { statusCode: 500, error: 'x', message: 'x' })],
    ['an unknown code', failed(500, { statusCode: 500, error: 'x', code: 'NOPE', message: 'x' })],
    ['a network failure', { status: 'FETCH_ERROR', error: 'TypeError' } as FetchBaseQueryError],
    ['a thrown bug', new Error('boom')],
  ])('is undefined for %s', (_case, error) => {
    expect(errorCode(error)).toBeUndefined();
  });
});

describe('validation errors', () => {
  it('become a readable sentence, never the raw request path', () => {
    expect(errorMessage(invalidEmail)).toBe('Email must be a valid email address.');
    expect(toastForError(invalidEmail)).toBe('Email must be a valid email address.');
    expect(
      validationSentence([
        { field: 'body.fields.0.name', message: 'is required' },
        { field: 'query.perPage', message: 'must be 20, 50 or 100' },
      ]),
    ).toBe('Fields 1 name is required. Per page must be 20, 50 or 100.');
  });

  it('name their fields as the form knows them', () => {
    expect(fieldErrors(invalidEmail)).toEqual([
      { field: 'email', message: 'must be a valid email address' },
    ]);
  });
});

describe('a request that got no readable answer', () => {
  it('is said in the page’s language, not the browser’s', () => {
    const unreached = { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' } as const;
    const unreadable = {
      status: 'PARSING_ERROR',
      originalStatus: 502,
      data: '<html>Bad Gateway</html>',
      error: 'SyntaxError: Unexpected token <',
    } as const;
    expect(errorMessage(unreached)).toBe(t('errors.unreachable'));
    expect(errorMessage(unreadable)).toBe(t('errors.unreadable'));
  });
});

describe('toastForError', () => {
  it("keeps the spec's toasts for 401, 403 and 404, whatever the server said", () => {
    const body = (code: string) => ({ statusCode: 0, error: 'x', code, message: 'server text' });
    expect(toastForError(failed(401, body('UNAUTHENTICATED')))).toBe(t('toast.sessionExpired'));
    expect(toastForError(failed(403, body('FORBIDDEN')))).toBe(t('toast.notAllowed'));
    expect(toastForError(failed(404, body('NOT_FOUND')))).toBe(t('toast.notFound'));
  });

  it('keeps the catch-all for the lookup service being down, whose page says more', () => {
    const down = failed(502, {
      statusCode: 502,
      error: 'Bad Gateway',
      code: 'BOOK_LOOKUP_UNAVAILABLE',
      message: 'The book lookup service could not be reached',
    });
    expect(toastForError(down)).toBe(t('toast.notAllowed'));
    expect(errorMessage(down)).toBe('The book lookup service could not be reached');
  });

  it('says why the items of a refused bulk action were refused, each reason once', () => {
    const refused = failed(409, {
      statusCode: 409,
      error: 'Conflict',
      code: 'BULK_REFUSED',
      message: 'Nothing was changed: 3 items were refused',
      report: {
        items: [
          { id: 'a', code: 'USERNAME_TAKEN', message: 'This username is taken' },
          { id: 'b', code: 'EMAIL_TAKEN', message: 'An account with this email already exists' },
          { id: 'c', code: 'USERNAME_TAKEN', message: 'This username is taken' },
        ],
      },
    });
    expect(toastForError(refused)).toBe(
      'Nothing was changed: 3 items were refused (This username is taken; An account with this email already exists)',
    );
  });

  it('stays quiet about the duplicate-request rejection', () => {
    expect(isRequestCanceled(requestCanceledError())).toBe(true);
    expect(toastForError(requestCanceledError())).toBeUndefined();
  });
});
