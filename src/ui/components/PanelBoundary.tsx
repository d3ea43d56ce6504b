import { Component, type ReactNode } from 'react';
import { isChunkLoadError } from '../lib/chunk-error';
import { NewVersionNeeded } from './NewVersion';

interface Props {
  /** Shown in the message: "The <name> panel …". */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * An error while drawing one panel (a damaged run from a file or from the history, a value no
 * one expected) shows a message in that panel only; the rest of the page keeps working.
 */
export class PanelBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render() {
    if (!this.state.error) return this.props.children;
    // A part of the old build the server no longer has: trying again would fail the same way.
    if (isChunkLoadError(this.state.error))
      return (
        <div className="panel-error error" role="alert" data-testid="panel-error">
          <NewVersionNeeded subject={`The ${this.props.name} panel`} />
        </div>
      );
    return (
      <div className="panel-error error" role="alert" data-testid="panel-error">
        <p>
          The {this.props.name} panel could not be shown: {this.state.error.message.slice(0, 300)}
        </p>
        <button type="button" className="small secondary" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
