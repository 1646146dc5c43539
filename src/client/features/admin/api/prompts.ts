import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NARRATIVE_PROMPT_NAME, PROMPT_HISTORY_PAGE, aiPromptRoutes } from '../../../../common/api/ai-prompts';
import { ERROR_CODES } from '../../../../common/api/error-codes';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError, hasErrorCode } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';
import { queryKeys } from '../../../lib/query-keys';
import { useAdminUnlock } from '../admin-unlock';

/**
 * The versions of the narrative prompt, newest first, a page at a time: each page asks for the
 * versions before the last one shown; a page shorter than asked is the last.
 */
export function useAiPrompts() {
  return useInfiniteQuery({
    queryKey: queryKeys.prompts,
    queryFn: ({ pageParam, signal }) =>
      api(aiPromptRoutes.list, { query: { before: pageParam === undefined ? undefined : String(pageParam), limit: String(PROMPT_HISTORY_PAGE.defaultLimit) } }, { signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => (lastPage.length < PROMPT_HISTORY_PAGE.defaultLimit ? undefined : lastPage.at(-1)?.id),
    refetchOnMount: 'always',
  });
}

/** One version's whole text, fetched when it is compared (the history carries only the start of each). A version never changes. */
export function usePromptVersion(promptId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.promptsRoot, 'version', promptId],
    queryFn: ({ signal }) => api(aiPromptRoutes.get, { params: { id: promptId } }, { signal }),
    enabled,
    staleTime: Infinity,
  });
}

/** The active prompt, or null when there is none (the server's 404 NO_ACTIVE_PROMPT): the built-in default is used then. */
export function useActivePrompt() {
  return useQuery({
    queryKey: queryKeys.activePrompt,
    queryFn: async ({ signal }) => {
      try {
        return await api(aiPromptRoutes.active, undefined, { signal });
      } catch (error) {
        if (hasErrorCode(error, ERROR_CODES.noActivePrompt)) return null;
        throw error;
      }
    },
    refetchOnMount: 'always',
  });
}

const PROMPT_CHANGED = { type: 'ai-prompt.changed' } as const;

/** Saves a new version, which becomes the only active one. */
export function useCreatePrompt() {
  const queryClient = useQueryClient();
  const { passwordRefused } = useAdminUnlock();
  return useMutation({
    mutationFn: (input: { prompt: string; description: string; adminPassword: string }) =>
      api(aiPromptRoutes.create, { body: { name: NARRATIVE_PROMPT_NAME, ...input, isActive: 1 } }),
    onSuccess: async () => {
      toast({ title: 'AI prompt updated successfully' });
      await refetchChangedBy(queryClient, PROMPT_CHANGED);
    },
    onError: (error) => {
      if (passwordRefused(error)) return;
      toast({ title: 'Failed to update AI prompt', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}

/** Makes an earlier version the active one again. */
export function useActivatePrompt(promptId: number) {
  const queryClient = useQueryClient();
  const { passwordRefused } = useAdminUnlock();
  return useMutation({
    mutationFn: (adminPassword: string) => api(aiPromptRoutes.activate, { params: { id: promptId }, body: { adminPassword } }),
    onSuccess: async () => {
      toast({ title: 'Prompt activated' });
      await refetchChangedBy(queryClient, PROMPT_CHANGED);
    },
    onError: (error) => {
      if (passwordRefused(error)) return;
      toast({ title: 'Failed to activate prompt', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
