import { MessageSquareText, ShieldCheck, Sparkles, ThumbsUp } from 'lucide-react';
import type { ReactNode } from 'react';
import { ASSISTANT_NAME, PRODUCT_VERSION } from '../../../shared/product';
import { ImageWithFallback } from '../../components/image-with-fallback';

const POINTS: readonly { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <MessageSquareText className="h-5 w-5" aria-hidden="true" />,
    title: 'Comment where it matters',
    text: 'Attach questions and change proposals to the exact component they concern, from event intake to the knowledge graph.',
  },
  {
    icon: <ThumbsUp className="h-5 w-5" aria-hidden="true" />,
    title: 'Let the team weigh in',
    text: 'Votes on comments and suggestions bring the concerns most of you share to the top.',
  },
  {
    icon: <Sparkles className="h-5 w-5" aria-hidden="true" />,
    title: `${ASSISTANT_NAME} reads along`,
    text: 'AI summaries condense long threads into themes, conflicts and recommended actions, each citing its sources.',
  },
  {
    icon: <ShieldCheck className="h-5 w-5" aria-hidden="true" />,
    title: 'For the review team only',
    text: 'Pre-approved members sign in with the team password and a personal PIN; every sign-in is audited.',
  },
];

/** The pitch beside the form (spec section 2: the sign-in screen carries marketing text). */
export function SignInMarketing() {
  return (
    <div className="mx-auto flex h-full max-w-xl flex-col justify-center gap-8 px-6 py-10 sm:px-10 lg:py-16">
      <div className="hidden items-center gap-3 lg:flex">
        <ImageWithFallback src="/biggy-logo.svg" alt={`${ASSISTANT_NAME} logo`} className="h-11 w-11 rounded-xl bg-white/10 p-1" fallbackEmoji="🤖" />
        <span className="text-lg font-semibold text-white">{ASSISTANT_NAME} Architecture Review</span>
      </div>
      <div>
        <p className="text-sm font-semibold tracking-wide text-indigo-200 uppercase">AI-Driven Operations Management</p>
        <h2 className="mt-3 text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
          Shape the platform {ASSISTANT_NAME} runs on, before it runs your incidents.
        </h2>
        <p className="mt-4 text-base leading-relaxed text-indigo-100">
          {ASSISTANT_NAME} detects, triages and investigates incidents side by side with your operations engineers. This review
          is where the team examines its architecture, piece by piece, and decides what to change.
        </p>
      </div>
      <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-1">
        {POINTS.map((point) => (
          <li key={point.title} className="flex gap-3">
            <span className="mt-0.5 inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-white/10 text-white ring-1 ring-white/20">
              {point.icon}
            </span>
            <div>
              <p className="font-semibold text-white">{point.title}</p>
              <p className="mt-1 text-sm leading-relaxed text-indigo-100">{point.text}</p>
            </div>
          </li>
        ))}
      </ul>
      <p className="text-sm text-indigo-200">Version {PRODUCT_VERSION}</p>
    </div>
  );
}
