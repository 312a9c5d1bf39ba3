import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

export type ToastVariant = 'default' | 'success' | 'error' | 'warning' | 'info';

/** A message waiting to be shown, or on screen. Serialisable: no callbacks. */
export interface Toast {
  key: string;
  message: string;
  variant: ToastVariant;
}

export interface UiState {
  toasts: Toast[];
}

const initialState: UiState = { toasts: [] };

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
    toastClosed(state, action: PayloadAction<string>) {
      state.toasts = state.toasts.filter((toast) => toast.key !== action.payload);
    },
  },
  selectors: {
    selectToasts: (state) => state.toasts,
  },
});

export const { toastQueued, toastClosed } = uiSlice.actions;
export const { selectToasts } = uiSlice.selectors;
