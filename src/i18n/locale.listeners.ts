import { isAnyOf } from '@reduxjs/toolkit';
import { isLocale, type Locale } from '@common/locales';
import { loggedIn } from '@/auth/auth.slice';
import { appStarted, type AppStartListening } from '@/lib/store';
import { localeActivated, localeChosen, localeFollowed, toastQueued } from '@/ui/ui.slice';
import { applyLocale, isLoaded, LOCALE_STORAGE_KEY, loadLocale } from './i18n';
import { t } from './useT';

/**
 * A language chosen while signed out, to keep for the account at sign-in: in this tab's
 * session storage, as the sign-in may go through another site (Google) and back.
 */
const CHOSEN_SIGNED_OUT_KEY = 'localeChosenSignedOut';

/**
 * The language, saga-style: a choice is loaded, put in effect, kept in this browser and,
 * for a signed-in user, on the server; at sign-in the language kept for the account applies,
 * unless the user chose one on the way in (on the sign-in page), which is then kept for it.
 */
export function addLocaleListeners(startListening: AppStartListening): void {
  // Counts the choices, so the account's language, arriving after a choice, does not undo it.
  let choices = 0;
  // The saves, one after another, so that the server keeps the last choice.
  let saved = Promise.resolve();

  startListening({
    matcher: isAnyOf(localeChosen, localeFollowed),
    effect: async (action: ReturnType<typeof localeChosen>, listenerApi) => {
      // The latest choice wins: an earlier one still loading is dropped.
      listenerApi.cancelActiveListeners();
      choices += 1;
      const locale = action.payload;
      // Another tab chose it: that tab keeps it for the account.
      const save = localeChosen.match(action);
      const signedIn = Boolean(listenerApi.getState().auth.accessToken);
      if (save && !signedIn) window.sessionStorage.setItem(CHOSEN_SIGNED_OUT_KEY, locale);
      await whenLoaded(locale, listenerApi.pause);
      put(locale, listenerApi.dispatch);
      if (!save || !signedIn) return;
      const { savePreferences } = await import('./preferences');
      saved = saved.then(() =>
        savePreferences({ locale }, listenerApi.dispatch, listenerApi.getState).then(
          () => undefined,
          () => void listenerApi.dispatch(toastQueued(t('toast.languageNotSaved'), 'warning')),
        ),
      );
    },
  });

  startListening({
    actionCreator: appStarted,
    effect: (_action, { dispatch }) => {
      window.addEventListener('storage', (event) => {
        if (event.key === LOCALE_STORAGE_KEY && isLocale(event.newValue)) {
          dispatch(localeFollowed(event.newValue));
        }
      });
    },
  });

  // At sign-in, and at the start of a page already signed in (the account's language may
  // have changed in another browser since this one last saw it).
  startListening({
    matcher: isAnyOf(loggedIn, appStarted),
    effect: async (action, listenerApi) => {
      const { dispatch, getState } = listenerApi;
      if (appStarted.match(action) && !getState().auth.refreshToken) return;
      const { loadPreferences, savePreferences } = await import('./preferences');
      const chosen = loggedIn.match(action)
        ? window.sessionStorage.getItem(CHOSEN_SIGNED_OUT_KEY)
        : null;
      window.sessionStorage.removeItem(CHOSEN_SIGNED_OUT_KEY);
      const before = choices;
      try {
        if (isLocale(chosen)) {
          await savePreferences({ locale: chosen }, dispatch, getState);
          return;
        }
        const { locale } = await loadPreferences(dispatch, getState);
        if (!locale || locale === getState().ui.locale) return;
        await whenLoaded(locale, listenerApi.pause);
        if (choices === before) put(locale, dispatch);
      } catch {
        // The account's language could not be read or kept: this browser's stays in effect.
      }
    },
  });
}

/**
 * Resolves once every part of `locale` this page needs is loaded, checked in the tick that
 * resolves: the caller puts it in effect at once, before a screen can want another part.
 */
async function whenLoaded(locale: Locale, pause: <T>(promise: Promise<T>) => Promise<T>) {
  do await pause(loadLocale(locale));
  while (!isLoaded(locale));
}

/** Puts a loaded language in effect, everywhere it shows, and keeps it in this browser. */
function put(locale: Locale, dispatch: (action: ReturnType<typeof localeActivated>) => void) {
  applyLocale(locale);
  window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  dispatch(localeActivated(locale));
}
