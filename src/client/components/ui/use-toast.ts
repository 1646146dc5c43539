import { useSyncExternalStore } from 'react';

/** At most one toast at a time; a dismissed toast is removed after 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds on screen; the provider's default (5000) when omitted. */
  duration?: number;
}

export interface ToastEntry extends ToastInput {
  id: number;
  open: boolean;
}

let entries: ToastEntry[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: ToastEntry[]) {
  entries = next;
  for (const listener of listeners) listener();
}

/** Shows a toast; the one helper every feature uses, so all toasts look and behave alike. Returns a dismiss function. */
export function toast(input: ToastInput): () => void {
  const id = nextId++;
  emit([{ ...input, id, open: true }, ...entries].slice(0, TOAST_LIMIT));
  return () => {
    dismissToast(id);
  };
}

export function dismissToast(id: number) {
  emit(entries.map((entry) => (entry.id === id ? { ...entry, open: false } : entry)));
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(entries.filter((entry) => entry.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

/** Empties the store and cancels pending removals, as a fresh page has it: for tests, which share the module. */
export function resetToasts() {
  for (const timer of removalTimers.values()) clearTimeout(timer);
  removalTimers.clear();
  emit([]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): ToastEntry[] {
  return useSyncExternalStore(subscribe, () => entries);
}
