import { createAction, createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_LOCALE, type Locale } from '@common/locales';
import type { UndoRequest } from '@/api/undo';

export type ToastVariant = 'default' | 'success' | 'error' | 'warning' | 'info';

/** A message waiting to be shown, or on screen. Serialisable: no callbacks. */
export interface Toast {
  key: string;
  message: string;
  variant: ToastVariant;
  /** A delete's toast: it offers Undo for UNDO_TOAST_MS. */
  undo?: UndoRequest;
}

export interface UiState {
  toasts: Toast[];
  /** The language in effect: its texts are loaded (`i18n/i18n.ts`). */
  locale: Locale;
}

const initialState: UiState = { toasts: [], locale: DEFAULT_LOCALE };

/** The user chose a language (the navigation's switch, on every page). */
export const localeChosen = createAction<Locale>('ui/localeChosen');

/** Another tab of this browser chose a language: this one follows. */
export const localeFollowed = createAction<Locale>('ui/localeFollowed');

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    toastQueued: {
      reducer(state, action: PayloadAction<Toast>) {
        // Identical toasts are shown once: while one is queued or on screen, a second
        // (two queries failing alike, a refresh failing for the page and the timer) adds nothing.
        const { message, variant } = action.payload;
        if (state.toasts.some((toast) => toast.message === message && toast.variant === variant)) {
          return;
        }
        state.toasts.push(action.payload);
      },
      prepare(message: string, variant: ToastVariant = 'default') {
        return { payload: { key: nanoid(), message, variant } };
      },
    },
    /** A delete done: its toast offers to undo it. */
    undoOffered: {
      reducer(state, action: PayloadAction<Toast>) {
        state.toasts.push(action.payload);
      },
      prepare(message: string, undo: UndoRequest) {
        return { payload: { key: nanoid(), message, variant: 'success' as const, undo } };
      },
    },
    /** Undo was pressed on a delete's toast (api/undo.ts carries it out). */
    undoRequested(_state, _action: PayloadAction<UndoRequest>) {},
    toastClosed(state, action: PayloadAction<string>) {
      state.toasts = state.toasts.filter((toast) => toast.key !== action.payload);
    },
    /** A language's texts are loaded and in effect. */
    localeActivated(state, action: PayloadAction<Locale>) {
      state.locale = action.payload;
    },
  },
  selectors: {
    selectToasts: (state) => state.toasts,
    selectLocale: (state) => state.locale,
  },
});

export const { toastQueued, undoOffered, undoRequested, toastClosed, localeActivated } =
  uiSlice.actions;
export const { selectToasts, selectLocale } = uiSlice.selectors;
