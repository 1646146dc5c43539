import { Bot, History, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { PROMPT_PREVIEW_LENGTH, SUGGESTIONS_PLACEHOLDER, isWholePrompt } from '../../../../common/api/ai-prompts';
import type { AiPrompt, AiPromptListItem } from '../../../../common/contract/ai';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatDateTime } from '../../../lib/relative-time';
import { useAdminUnlock } from '../admin-unlock';
import { useActivatePrompt, useActivePrompt, useAiPrompts, useCreatePrompt, usePromptVersion } from '../api/prompts';
import { EmptyState, ListSkeleton, Panel } from '../../../components/ui/panel';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { PromptDiff } from './prompt-diff';
import { ToneBadge } from './tone-badge';
import { EMPTY_PROMPT_DRAFT, type PromptDraft } from '../prompt-draft';

const textareaClasses =
  'block min-h-48 w-full rounded-lg border border-slate-500 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-xs hover:border-slate-600 focus:border-brand-600 aria-[invalid=true]:border-red-600';


interface PromptsTabProps {
  draft: PromptDraft;
  onDraftChange: (draft: PromptDraft) => void;
}

const isFilled = (value: string) => value.trim() !== '';

export function PromptsTab({ draft, onDraftChange }: PromptsTabProps) {
  const active = useActivePrompt();
  return (
    <div className="space-y-6">
      <ActivePromptCard active={active} />
      <PromptForm draft={draft} onDraftChange={onDraftChange} />
      <PromptHistory activePrompt={active.data ?? null} />
    </div>
  );
}

function ActivePromptCard({ active }: { active: ReturnType<typeof useActivePrompt> }) {
  const prompt = active.data;
  return (
    <Panel title="Current Active Prompt" icon={<Bot className="h-5 w-5 text-brand-600" aria-hidden="true" />} description="What the team narrative on Feedback and Recommendations is written from.">
      {active.isPending && (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading the active prompt…</span>
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-24 w-full" />
        </div>
      )}
      {active.isError && prompt === undefined && <LoadError title="The active prompt could not be loaded" query={active} />}
      {prompt === null && <EmptyState>No active prompt; the built-in default is used</EmptyState>}
      {prompt !== undefined && prompt !== null && (
        <div>
          {prompt.description !== null && prompt.description !== '' && <p className="font-medium text-slate-900">{prompt.description}</p>}
          <ScrollRegion label="The active prompt, scrolls" className="mt-2 max-h-80 overflow-auto rounded-lg border border-slate-200 bg-slate-50 focus-visible:outline-offset-2">
            <pre className="p-3 font-mono text-sm break-words whitespace-pre-wrap text-slate-800">{prompt.prompt}</pre>
          </ScrollRegion>
          <p className="mt-2 text-xs text-slate-600">
            By {prompt.createdBy}, <time dateTime={prompt.createdAt}>{formatDateTime(prompt.createdAt)}</time>
          </p>
        </div>
      )}
    </Panel>
  );
}

function PromptForm({ draft, onDraftChange }: PromptsTabProps) {
  const descriptionId = useId();
  const promptId = useId();
  const hintId = useId();
  const warningId = useId();
  const { description, prompt } = draft;
  const create = useCreatePrompt();
  const { withPassword } = useAdminUnlock();
  const missingPlaceholder = isFilled(prompt) && !prompt.includes(SUGGESTIONS_PLACEHOLDER);
  const ready = isFilled(prompt) && isFilled(description) && !missingPlaceholder && !create.isPending;

  return (
    <Panel title="New Prompt" description="Saving makes it the active prompt; earlier versions stay in the history below.">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          withPassword((adminPassword) => {
            create.mutate(
              { prompt, description: description.trim(), adminPassword },
              {
                onSuccess: () => {
                  onDraftChange(EMPTY_PROMPT_DRAFT);
                },
              },
            );
          });
        }}
      >
        <div>
          <label htmlFor={descriptionId} className="block text-sm font-medium text-slate-900">
            Description
          </label>
          <Input
            id={descriptionId}
            value={description}
            className="mt-1"
            onChange={(event) => {
              onDraftChange({ ...draft, description: event.target.value });
            }}
          />
        </div>
        <div>
          <label htmlFor={promptId} className="block text-sm font-medium text-slate-900">
            Prompt
          </label>
          <textarea
            id={promptId}
            value={prompt}
            aria-describedby={missingPlaceholder ? `${hintId} ${warningId}` : hintId}
            aria-invalid={missingPlaceholder}
            className={`mt-1 ${textareaClasses}`}
            onChange={(event) => {
              onDraftChange({ ...draft, prompt: event.target.value });
            }}
          />
          <p id={hintId} className="mt-1 text-xs text-slate-600">
            Use <code className="rounded bg-slate-100 px-1 font-mono">{SUGGESTIONS_PLACEHOLDER}</code> where the suggestions should go
          </p>
          {missingPlaceholder && (
            <p id={warningId} role="alert" className="mt-2 flex items-center gap-2 text-sm font-medium text-amber-900">
              <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden="true" />
              The prompt must contain {SUGGESTIONS_PLACEHOLDER}, where the suggestions go.
            </p>
          )}
        </div>
        <Button type="submit" disabled={!ready}>
          {create.isPending ? 'Saving...' : 'Save Prompt'}
        </Button>
      </form>
    </Panel>
  );
}

/** The start of a version as the history carries it, with an ellipsis when the text goes on. */
function preview(item: AiPromptListItem): string {
  return isWholePrompt(item) ? item.prompt : `${Array.from(item.prompt).slice(0, PROMPT_PREVIEW_LENGTH).join('')}…`;
}

function PromptHistory({ activePrompt }: { activePrompt: AiPrompt | null }) {
  const prompts = useAiPrompts();
  const list = prompts.data?.pages.flat();
  return (
    <Panel title="Prompt History" icon={<History className="h-5 w-5 text-brand-600" aria-hidden="true" />} description="Every saved version, newest first.">
      {prompts.isPending && <ListSkeleton label="Loading the prompt history…" />}
      {prompts.isError && list === undefined && <LoadError title="The prompt history could not be loaded" query={prompts} />}
      {list?.length === 0 && <EmptyState>No prompts saved yet.</EmptyState>}
      {list !== undefined && list.length > 0 && (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label="Prompt versions">
          {list.map((prompt) => (
            <PromptVersion key={prompt.id} prompt={prompt} activePrompt={activePrompt} />
          ))}
        </ul>
      )}
      {prompts.hasNextPage && (
        <div className="mt-3">
          <Button
            variant="outline"
            size="sm"
            aria-disabled={prompts.isFetchingNextPage}
            onClick={() => {
              if (!prompts.isFetchingNextPage) void prompts.fetchNextPage();
            }}
          >
            {prompts.isFetchingNextPage ? 'Loading...' : 'Load older versions'}
          </Button>
        </div>
      )}
    </Panel>
  );
}

function PromptVersion({ prompt, activePrompt }: { prompt: AiPromptListItem; activePrompt: AiPrompt | null }) {
  const activate = useActivatePrompt(prompt.id);
  const { withPassword } = useAdminUnlock();
  const [comparing, setComparing] = useState(false);
  // The whole text is fetched only to compare it (and only when the history holds just its start).
  const whole = usePromptVersion(prompt.id, comparing && !isWholePrompt(prompt));
  const versionText = isWholePrompt(prompt) ? prompt.prompt : whole.data?.prompt;
  const diffId = useId();
  const when = formatDateTime(prompt.createdAt);
  return (
    <li className="px-4 py-3">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <ToneBadge tone={prompt.isActive ? 'green' : 'gray'}>{prompt.isActive ? 'Active' : 'Inactive'}</ToneBadge>
        <time dateTime={prompt.createdAt} className="text-slate-700">
          {when}
        </time>
        <span className="text-slate-600">by {prompt.createdBy}</span>
      </p>
      {prompt.description !== null && prompt.description !== '' && <p className="mt-1 text-sm font-medium text-slate-900">{prompt.description}</p>}
      <p className="mt-1 font-mono text-xs break-words whitespace-pre-wrap text-slate-700">{preview(prompt)}</p>
      {!prompt.isActive && (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            aria-disabled={activate.isPending}
            onClick={() => {
              if (!activate.isPending)
                withPassword((adminPassword) => {
                  activate.mutate(adminPassword);
                });
            }}
          >
            {activate.isPending ? 'Activating...' : 'Activate'}
          </Button>
          {activePrompt !== null && (
            <Button
              variant="outline"
              size="sm"
              aria-expanded={comparing}
              aria-controls={comparing ? diffId : undefined}
              onClick={() => {
                setComparing(!comparing);
              }}
            >
              Compare with active
            </Button>
          )}
        </div>
      )}
      {comparing && activePrompt !== null && !prompt.isActive && (
        <div id={diffId}>
          {versionText !== undefined && <PromptDiff active={activePrompt.prompt} version={versionText} label={`Changes of the version of ${when} against the active prompt`} />}
          {versionText === undefined && whole.isPending && <p className="mt-3 text-sm text-slate-600" role="status">Loading the whole version…</p>}
          {versionText === undefined && whole.isError && <LoadError title="The version could not be loaded" query={whole} />}
        </div>
      )}
    </li>
  );
}
