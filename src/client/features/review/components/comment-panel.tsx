import { Dialog } from 'radix-ui';
import { X } from 'lucide-react';
import { useRef } from 'react';
import { useEscapeCloses } from '../../../lib/use-escape-closes';
import type { ReviewTarget } from '../review-target';
import { CommentForm } from './comment-form';
import { CommentList } from './comment-list';
import { CommentSummarySection } from './comment-summary';
import { DecisionSection } from './decision-section';
import { ScrollArea } from '../../../components/ui/scroll-area';
import { tip } from '../../../components/ui/tooltip';

interface CommentPanelProps {
  target: ReviewTarget | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Puts focus back on the button that opened the panel. */
  restoreFocus: () => void;
}

/**
 * The right-side comment panel, 24rem wide, for one component. A modal Radix
 * dialog: focus moves in and is kept there, Escape closes it and focus returns to the opener.
 * Loaded on first use (its own chunk), so the page's first paint does not carry it.
 */
export default function CommentPanel({ target, open, onOpenChange, restoreFocus }: CommentPanelProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const content = useRef<HTMLDivElement>(null);

  useEscapeCloses(open, onOpenChange);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/30 transition-opacity starting:opacity-0 motion-reduce:transition-none" />
        <Dialog.Content
          ref={content}
          className="fixed inset-y-0 right-0 z-50 flex w-96 max-w-full flex-col border-l border-slate-200 bg-white shadow-2xl transition-transform duration-200 outline-none starting:translate-x-full motion-reduce:transition-none"
          onOpenAutoFocus={(event) => {
            // With a mouse or keyboard the member came to write: start in the text field. On touch
            // screens that would throw up the on-screen keyboard over the comments, so focus the panel.
            event.preventDefault();
            const finePointer = window.matchMedia('(pointer: fine)').matches;
            (finePointer ? textarea.current : content.current)?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus();
          }}
        >
          {target !== null && (
            <>
              <header className="flex items-start gap-3 border-b border-slate-200 px-5 py-4">
                <div className="min-w-0 flex-1">
                  <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">{target.context}</p>
                  <Dialog.Title className="mt-0.5 text-lg leading-snug font-semibold text-slate-900">{target.title}</Dialog.Title>
                </div>
                <Dialog.Close {...tip('Close comments (Esc)', 'bottom')} className="-mr-2 inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900" aria-label="Close comments">
                  <X className="h-5 w-5" aria-hidden="true" />
                </Dialog.Close>
              </header>
              {/* Keyed by component: reopening for another component starts with an empty form. */}
              <ScrollArea key={target.id} className="min-h-0 flex-1">
                <div className="space-y-6 px-5 py-4">
                  <Dialog.Description className="text-sm leading-relaxed text-slate-600">{target.description}</Dialog.Description>
                  <DecisionSection componentId={target.id} componentTitle={target.title} />
                  <CommentForm componentId={target.id} componentTitle={target.title} textareaRef={textarea} />
                  {/* Between the form and the list it sums up: it never pushes the form down. */}
                  <CommentSummarySection componentId={target.id} componentTitle={target.title} />
                  <CommentList componentId={target.id} componentTitle={target.title} />
                </div>
              </ScrollArea>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
