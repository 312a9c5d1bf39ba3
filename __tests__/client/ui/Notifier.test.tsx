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
});
