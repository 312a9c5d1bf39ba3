import { act, screen } from '@testing-library/react';
import { UNDO_TOAST_MS } from '@common/constants';
import { toastQueued, undoOffered } from '@/ui/ui.slice';
import { renderApp } from '../helpers/render';

describe('toasts', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it.each([
    ['error', 2000],
    ['success', 3000],
  ] as const)('shows a %s toast and closes it after %i ms', async (variant, ms) => {
    const { store } = renderApp('/');
    act(() => {
      store.dispatch(toastQueued(`a ${variant} message`, variant));
    });
    expect(await screen.findByText(`a ${variant} message`)).toBeInTheDocument();

    act(() => jest.advanceTimersByTime(ms - 100));
    expect(screen.getByText(`a ${variant} message`)).toBeInTheDocument();

    // Past the duration, then through the exit transition, one step at a time.
    for (let step = 0; step < 10; step++) {
      await act(async () => jest.advanceTimersByTime(200));
    }
    expect(screen.queryByText(`a ${variant} message`)).not.toBeInTheDocument();
    expect(store.getState().ui.toasts).toEqual([]);
  });

  it('shows an identical toast once while it is on screen, and again after it closed', async () => {
    const { store } = renderApp('/');
    act(() => {
      store.dispatch(toastQueued('Whatever you requested is not here.', 'error'));
      store.dispatch(toastQueued('Whatever you requested is not here.', 'error'));
      store.dispatch(toastQueued('Whatever you requested is not here.', 'success'));
    });
    expect(await screen.findAllByText('Whatever you requested is not here.')).toHaveLength(2);
    expect(store.getState().ui.toasts.map((t) => t.variant)).toEqual(['error', 'success']);

    for (let step = 0; step < 30; step++) {
      await act(async () => jest.advanceTimersByTime(200));
    }
    expect(store.getState().ui.toasts).toEqual([]);
    act(() => {
      store.dispatch(toastQueued('Whatever you requested is not here.', 'error'));
    });
    expect(await screen.findByText('Whatever you requested is not here.')).toBeInTheDocument();
  });

  /** Runs the clock past `ms`, then through an exit transition, a step at a time. */
  const pass = async (ms: number) => {
    await act(async () => jest.advanceTimersByTime(ms));
    for (let step = 0; step < 10; step++) await act(async () => jest.advanceTimersByTime(200));
  };

  it("keeps a delete's toast while the keyboard is on its Undo, and gives the keyboard back after Undo", async () => {
    const { store } = renderApp('/');
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    act(() => {
      store.dispatch(
        undoOffered('Deleted ada', { url: '/api/users/bulk-restore', invalidates: [] }),
      );
    });
    const undo = await screen.findByRole('button', { name: 'Undo' });
    act(() => undo.focus());
    await pass(UNDO_TOAST_MS * 3);
    expect(screen.getByText('Deleted ada')).toBeInTheDocument();
    act(() => undo.click());
    expect(before).toHaveFocus();
    before.remove();
  });

  it("closes a delete's toast UNDO_TOAST_MS after the keyboard leaves it", async () => {
    const { store } = renderApp('/');
    act(() => {
      store.dispatch(
        undoOffered('Deleted bob', { url: '/api/users/bulk-restore', invalidates: [] }),
      );
    });
    const undo = await screen.findByRole('button', { name: 'Undo' });
    await act(async () => jest.advanceTimersByTime(UNDO_TOAST_MS - 1000));
    act(() => undo.focus());
    act(() => undo.blur());
    await act(async () => jest.advanceTimersByTime(UNDO_TOAST_MS - 1000));
    expect(screen.getByText('Deleted bob')).toBeInTheDocument();
    await pass(1000);
    expect(screen.queryByText('Deleted bob')).not.toBeInTheDocument();
  });
});
