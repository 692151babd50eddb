import { useSyncExternalStore } from 'react';

/** Where the download the user asked for stands (one at a time). */
export type DownloadProgress =
  | { state: 'idle' }
  | { state: 'preparing'; done: number; total: number }
  | { state: 'ready'; href: string; fileName: string }
  | { state: 'failed' };

let current: DownloadProgress = { state: 'idle' };
const listeners = new Set<() => void>();

/** Told by the download code (e.g. an export job's pushes); shown by the DownloadButton. */
export function reportDownloadProgress(next: DownloadProgress): void {
  current = next;
  for (const listener of listeners) listener();
}

export function useDownloadProgress(): DownloadProgress {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}

/** Whole percent of `done` over `total`, 0–100. */
export function percentOf(done: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.max(0, Math.min(100, Math.floor((done * 100) / total)));
}
