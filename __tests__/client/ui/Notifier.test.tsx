import { act, screen } from '@testing-library/react';
import { toastQueued } from '@/ui/ui.slice';
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
});
