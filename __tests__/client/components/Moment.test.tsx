import { act, render, screen } from '@testing-library/react';
import { Moment } from '@/components/Moment';

describe('a moment on screen', () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.parse('2026-11-25T22:06:59.000Z') }));
  afterEach(() => jest.useRealTimers());

  it('is said again as time passes, with its exact moment on hover', () => {
    render(<Moment iso="2026-11-25T22:06:59.000Z" />);
    const time = screen.getByText('now');
    expect(time).toHaveAttribute('dateTime', '2026-11-25T22:06:59.000Z');
    expect(time.title).toMatch(/\(2026-11-25 22:06:59 UTC\)$/);
    // Said again every half minute: three minutes on, to the half minute, it is two.
    act(() => jest.advanceTimersByTime(3 * 60_000));
    expect(time).toHaveTextContent('2 minutes ago');
  });
});
