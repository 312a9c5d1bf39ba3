import { render, screen } from '@testing-library/react';
import { t } from '@/i18n/useT';
import { ErrorBoundary } from '@/ui/ErrorBoundary';

function Broken(): never {
  throw new Error('render failed');
}

describe('ErrorBoundary', () => {
  it('shows the apology instead of a component that fails to render', () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(t('shell.errorTitle'));
    expect(screen.getByRole('alert')).toHaveTextContent(t('shell.errorBody'));
    consoleError.mockRestore();
  });

  it('shows its children when they render', () => {
    render(
      <ErrorBoundary>
        <p>fine</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('fine')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
