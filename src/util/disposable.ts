/**
 * Minimal disposable helpers (the pattern VS Code's own extensions use): long-lived objects register
 * what they own once, and disposing twice is harmless. Core code uses these instead of vscode's
 * Disposable so it stays importable outside the editor.
 */
export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

export abstract class Disposable implements IDisposable {
  private readonly owned: IDisposable[] = [];
  private disposedFlag = false;

  protected get isDisposed(): boolean {
    return this.disposedFlag;
  }

  protected register<T extends IDisposable>(value: T): T {
    if (this.disposedFlag) {
      value.dispose();
    } else {
      this.owned.push(value);
    }
    return value;
  }

  dispose(): void {
    if (this.disposedFlag) return;
    this.disposedFlag = true;
    // Dispose in reverse order of registration so dependents go before what they depend on.
    for (const item of this.owned.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (err) {
        console.error('Tandem: dispose failed', err);
      }
    }
  }
}

/** A tiny typed event emitter with disposable subscriptions. */
export class Emitter<T> implements IDisposable {
  private listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): IDisposable => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        console.error('Tandem: listener failed', err);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
