import { ArrowLeft, BookOpen, Link2, Sparkles, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { ASSISTANT_NAME } from '../../../common/product';
import { ROUTES } from '../../../common/routes';
import { PageHeader } from '../../components/layout/page-header';
import { FeatureItem, type FeatureItemClasses } from '../../components/feature-item';
import { SectionHeading, type SectionHeadingClasses } from '../../components/section-heading';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import {
  COPY_LINK_TOASTS,
  DIAGRAM_INTRO,
  HERO,
  HIGHLIGHTS,
  IT_ORGANIZATION,
  PLATFORM,
  SME_ACTIONS,
  type DiagramColumnContent,
  type PlatformBlock,
} from './capabilities-content';

const HIGHLIGHT_CLASSES: FeatureItemClasses = {
  item: 'flex gap-4 rounded-xl border border-slate-200 bg-slate-50 p-4 sm:block',
  marker: 'flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm',
  body: 'sm:mt-3',
  title: 'font-semibold text-slate-900',
  text: 'mt-1 text-sm text-slate-600',
};
/** The column's dot colour is added per column. */
const DIAGRAM_ITEM_CLASSES: FeatureItemClasses = {
  item: 'flex gap-3 rounded-lg border border-slate-100 bg-slate-50/60 p-3',
  marker: 'mt-1.5 h-2 w-2 shrink-0 rounded-full',
  title: 'text-sm font-semibold text-slate-900',
  text: 'mt-0.5 text-sm leading-snug text-slate-600',
};

const COLUMN_HEADING_CLASSES: SectionHeadingClasses = { title: 'text-lg font-semibold text-slate-900', text: 'text-sm text-slate-600' };
const DIAGRAM_HEADING_CLASSES: SectionHeadingClasses = {
  box: 'mx-auto max-w-3xl text-center',
  title: 'text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl',
  text: 'mt-3 text-slate-600',
};

async function copyPageLink() {
  try {
    // Rejects (or throws when the Clipboard API is missing) outside a secure context or without permission.
    await navigator.clipboard.writeText(window.location.href);
    toast(COPY_LINK_TOASTS.copied);
  } catch {
    toast(COPY_LINK_TOASTS.failed);
  }
}

function Hero() {
  return (
    <section aria-labelledby="capabilities-title" className="border-b border-slate-200 bg-white">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-10 sm:px-6 sm:py-14 lg:grid-cols-[1.1fr_1fr] lg:items-center lg:gap-12">
        <div>
          <p className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-700 ring-1 ring-brand-100">
            <Sparkles className="h-4 w-4" aria-hidden="true" />
            {HERO.eyebrow}
          </p>
          <h1 id="capabilities-title" className="mt-4 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl lg:text-5xl">
            {HERO.title}
          </h1>
          <p className="mt-4 max-w-2xl text-base leading-relaxed text-slate-700 sm:text-lg">{HERO.body}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button variant="outline" onClick={() => void copyPageLink()}>
              <Link2 className="h-4 w-4" aria-hidden="true" />
              Copy link
            </Button>
            <Link href={ROUTES.principles} className={buttonClasses('ghost', 'md')}>
              <BookOpen className="h-4 w-4" aria-hidden="true" />
              Design principles
            </Link>
          </div>
        </div>
        <ul aria-label="Highlights" className="grid gap-3 sm:grid-cols-2">
          {HIGHLIGHTS.map((highlight) => (
            <FeatureItem key={highlight.title} feature={highlight} classes={HIGHLIGHT_CLASSES} />
          ))}
        </ul>
      </div>
    </section>
  );
}

/** An icon on a coloured tile; decorative, as the heading beside it names the thing. */
function IconTile({ icon: Icon, className, iconClassName }: { icon: LucideIcon; className: string; iconClassName: string }) {
  return (
    <span className={className}>
      <Icon className={iconClassName} aria-hidden="true" />
    </span>
  );
}

/** A side column of the diagram: the IT organisation on the left, the SME actions on the right. */
function DiagramColumn({ id, column, dotClassName }: { id: string; column: DiagramColumnContent; dotClassName: string }) {
  const classes = { ...DIAGRAM_ITEM_CLASSES, marker: `${DIAGRAM_ITEM_CLASSES.marker} ${dotClassName}` };
  return (
    <Card className="p-5">
      <div className="flex items-center gap-3">
        <IconTile icon={column.icon} className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-slate-900 text-white" iconClassName="h-5 w-5" />
        <SectionHeading id={id} level={3} title={column.title} text={column.caption} classes={COLUMN_HEADING_CLASSES} />
      </div>
      <ul aria-labelledby={id} className="mt-4 grid gap-2 sm:grid-cols-2 xl:grid-cols-1">
        {column.items.map((item) => (
          <FeatureItem key={item.title} feature={item} classes={classes} />
        ))}
      </ul>
    </Card>
  );
}

function FocusTags({ focus }: { focus: readonly string[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-1.5">
      {focus.map((tag) => (
        <li key={tag} className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
          {tag}
        </li>
      ))}
    </ul>
  );
}

function PlatformBlockCard({ block }: { block: PlatformBlock }) {
  return (
    <article className="h-full rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-center gap-2.5">
        <IconTile icon={block.icon} className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700" iconClassName="h-4 w-4" />
        <h4 className="font-semibold text-slate-900">{block.title}</h4>
      </div>
      <FocusTags focus={block.focus} />
      <p className="mt-2 text-sm leading-snug text-slate-600">{block.description}</p>
    </article>
  );
}

function PlatformBlockList({ label, blocks, className }: { label: string; blocks: readonly PlatformBlock[]; className: string }) {
  return (
    <ul aria-label={label} className={className}>
      {blocks.map((block) => (
        <li key={block.title}>
          <PlatformBlockCard block={block} />
        </li>
      ))}
    </ul>
  );
}

function PlatformPanel() {
  return (
    <div className="rounded-2xl border border-brand-100 bg-linear-to-b from-brand-50 to-white p-4 shadow-sm ring-1 ring-brand-100 sm:p-5">
      <div className="text-center">
        <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-2xl bg-linear-to-br from-brand-600 to-brand-900 text-white shadow-md">
          <Sparkles className="h-6 w-6" aria-hidden="true" />
        </span>
        <h3 id="platform-title" className="mt-3 text-xl font-bold text-slate-900">
          {PLATFORM.title}
        </h3>
        <p className="mt-1.5 inline-block rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold tracking-wide text-white">
          {PLATFORM.role}
        </p>
      </div>
      <PlatformBlockList label="Platform capabilities" blocks={PLATFORM.core} className="mt-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-2" />
      <div aria-hidden="true" className="my-4 flex items-center gap-3 text-xs font-semibold tracking-wider text-brand-700 uppercase">
        <span className="h-px flex-1 bg-brand-100" />
        Foundation
        <span className="h-px flex-1 bg-brand-100" />
      </div>
      <PlatformBlockList label="Platform foundation" blocks={PLATFORM.foundation} className="grid gap-3 lg:grid-cols-2 xl:grid-cols-1" />
    </div>
  );
}

function FlowArrow({ className }: { className: string }) {
  return (
    <svg viewBox="0 0 48 16" className={className} fill="none">
      <path d="M2 8h38" stroke="currentColor" strokeWidth="2" strokeDasharray="4 4" strokeLinecap="round" />
      <path d="M38 3l7 5-7 5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The flow between columns: three arrows pointing right from 1280 px, one pointing down when stacked. */
function FlowConnector() {
  return (
    <div aria-hidden="true" className="flex items-center justify-center text-brand-500 xl:flex-col xl:justify-around xl:self-stretch xl:py-16">
      <FlowArrow className="h-4 w-12 rotate-90 xl:hidden" />
      {[0, 1, 2].map((index) => (
        <FlowArrow key={index} className="hidden h-4 w-12 xl:block" />
      ))}
    </div>
  );
}

function Diagram() {
  return (
    <section aria-labelledby="diagram-title" className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
      <SectionHeading id="diagram-title" title={DIAGRAM_INTRO.title} text={DIAGRAM_INTRO.body} classes={DIAGRAM_HEADING_CLASSES} />
      <div className="mt-10 grid gap-3 xl:grid-cols-[minmax(0,1fr)_3rem_minmax(0,1.55fr)_3rem_minmax(0,1fr)] xl:items-center xl:gap-0">
        <DiagramColumn id="it-organization-title" column={IT_ORGANIZATION} dotClassName="bg-sky-500" />
        <FlowConnector />
        <PlatformPanel />
        <FlowConnector />
        <DiagramColumn id="sme-actions-title" column={SME_ACTIONS} dotClassName="bg-emerald-500" />
      </div>
    </section>
  );
}

export default function CapabilitiesPage() {
  return (
    <div className="min-h-screen">
      <PageHeader title={`${ASSISTANT_NAME} Capabilities`} subtitle="AI-Driven Operations Management" titleIsHeading={false} />
      <main>
        <div className="mx-auto max-w-7xl px-4 pt-6 sm:px-6">
          <Link href={ROUTES.home} className={buttonClasses('outline', 'sm')}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Back
          </Link>
        </div>
        <Hero />
        <Diagram />
      </main>
    </div>
  );
}
