import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorFallback } from './error-fallback.tsx';

interface ErrorBoundaryProps {
  children: ReactNode;
  fullPage?: boolean;
  /** Changing it clears a caught error; pass the pathname so navigating away recovers. */
  resetKey?: string;
}

interface ErrorBoundaryState {
  error: unknown;
  resetKey: string | undefined;
}

/** Catches render errors (and failed lazy imports) of a route and shows ErrorFallback. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Screen failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error !== null) return <ErrorFallback error={this.state.error} fullPage={this.props.fullPage} />;
    return this.props.children;
  }
}
