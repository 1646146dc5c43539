import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, screen, within, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { expect } from 'vitest';
import { Toaster } from '../components/ui/toaster';
import { createQueryClient } from '../lib/query-client';

export interface Rendered extends RenderResult {
  queryClient: QueryClient;
  user: UserEvent;
}

/** Renders `ui` as the app does: a fresh query client with the app's defaults and the app's Toaster. */
export function renderWithApp(ui: ReactElement, { toaster = true }: { toaster?: boolean } = {}): Rendered {
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const result = render(
    <QueryClientProvider client={queryClient}>
      {ui}
      {toaster && <Toaster />}
    </QueryClientProvider>,
  );
  return { ...result, queryClient, user };
}

/** The toast on screen with this title (the app shows one at a time); its text includes the description. */
export async function findToast(title: string): Promise<HTMLElement> {
  const region = screen.getByRole('region', { name: /notifications/i });
  const heading = await within(region).findByText(title);
  const item = heading.closest('li');
  if (item === null) throw new Error(`The toast '${title}' is not in a list item`);
  return item;
}

/** Asserts the toast's title and description. */
export async function expectToast(title: string, description: string): Promise<void> {
  const item = await findToast(title);
  expect(item.textContent).toContain(description);
}

// The toast store is module state that outlives a test: setup.ts empties it after each one.
export { resetToasts } from '../components/ui/use-toast';
