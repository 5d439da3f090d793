import type * as vscode from 'vscode';

/** Owns disposables: everything registered with `track()` goes away with the owner. */
export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  protected track<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // one failing dispose must not keep the others alive
      }
    }
  }
}
