import { MessageSquareText, ShieldCheck, Sparkles, ThumbsUp } from 'lucide-react';
import { ASSISTANT_NAME, PRODUCT_VERSION } from '../../../common/product';
import { FeatureItem, type Feature, type FeatureItemClasses } from '../../components/feature-item';
import { ImageWithFallback } from '../../components/image-with-fallback';

const POINTS: readonly Feature[] = [
  {
    icon: MessageSquareText,
    title: 'Comment where it matters',
    description: 'Attach questions and change proposals to the exact component they concern, from event intake to the knowledge graph.',
  },
  {
    icon: ThumbsUp,
    title: 'Let the team weigh in',
    description: 'Votes on comments and suggestions bring the concerns most of you share to the top.',
  },
  {
    icon: Sparkles,
    title: `${ASSISTANT_NAME} reads along`,
    description: 'AI summaries condense long threads into themes, conflicts and recommended actions, each citing its sources.',
  },
  {
    icon: ShieldCheck,
    title: 'For the review team only',
    description: 'Pre-approved members sign in with the team password and a personal PIN; every sign-in is audited.',
  },
];

const POINT_CLASSES: FeatureItemClasses = {
  item: 'flex gap-3',
  marker: 'mt-0.5 inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-white/10 text-white ring-1 ring-white/20',
  title: 'font-semibold text-white',
  text: 'mt-1 text-sm leading-relaxed text-indigo-100',
};

/** The pitch beside the form: what the review is and who it is for. */
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
          <FeatureItem key={point.title} feature={point} classes={POINT_CLASSES} />
        ))}
      </ul>
      <p className="text-sm text-indigo-200">Version {PRODUCT_VERSION}</p>
    </div>
  );
}
