import type { Locale } from '@common/locales';
import { loggedIn } from '@/auth/auth.slice';
import type { AppStartListening } from '@/lib/store';
import { localeActivated, localeChosen, toastQueued } from '@/ui/ui.slice';
import { applyLocale, LOCALE_STORAGE_KEY, loadLocale } from './i18n';
import { t } from './useT';

/**
 * The language, saga-style: a choice is loaded, put in effect, kept in this browser and,
 * for a signed-in user, on the server; at sign-in the language kept for the account applies,
 * unless the user chose one on the way in (on the sign-in page), which is then kept for it.
 */
export function addLocaleListeners(startListening: AppStartListening): void {
  let chosenSignedOut = false;

  startListening({
    actionCreator: localeChosen,
    effect: async ({ payload: locale }, listenerApi) => {
      // The latest choice wins: an earlier one still loading is dropped.
      listenerApi.cancelActiveListeners();
      await listenerApi.pause(loadLocale(locale));
      put(locale, listenerApi.dispatch);
      if (!listenerApi.getState().auth.accessToken) {
        chosenSignedOut = true;
        return;
      }
      const { savePreferences } = await import('./preferences');
      await savePreferences({ locale }, listenerApi.dispatch, listenerApi.getState).catch(() =>
        listenerApi.dispatch(toastQueued(t('toast.languageNotSaved'), 'warning')),
      );
    },
  });

  startListening({
    actionCreator: loggedIn,
    effect: async (_action, listenerApi) => {
      const { loadPreferences, savePreferences } = await import('./preferences');
      const { dispatch, getState } = listenerApi;
      try {
        if (chosenSignedOut) {
          chosenSignedOut = false;
          await savePreferences({ locale: getState().ui.locale }, dispatch, getState);
          return;
        }
        const { locale } = await loadPreferences(dispatch, getState);
        if (!locale || locale === getState().ui.locale) return;
        await listenerApi.pause(loadLocale(locale));
        put(locale, dispatch);
      } catch {
        // The account's language could not be read or kept: this browser's stays in effect.
      }
    },
  });
}

/** Puts a loaded language in effect, everywhere it shows, and keeps it in this browser. */
function put(locale: Locale, dispatch: (action: ReturnType<typeof localeActivated>) => void) {
  applyLocale(locale);
  window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  dispatch(localeActivated(locale));
}
