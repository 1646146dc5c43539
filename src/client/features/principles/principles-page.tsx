import { ArrowRight, Check } from 'lucide-react';
import { Link } from 'wouter';
import { ROUTES } from '../../../common/routes';
import { FeatureItem, type FeatureItemClasses } from '../../components/feature-item';
import { PageHeader } from '../../components/layout/page-header';
import { SectionHeading, type SectionHeadingClasses } from '../../components/section-heading';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import {
  MISSION,
  PRINCIPLES,
  PRINCIPLES_CALL_TO_ACTION,
  PRINCIPLES_INTRO,
  type Principle,
  type PrincipleAccent,
} from './principles-content';

// Whole class strings, so Tailwind's scanner sees every class it has to generate.
const ACCENT_CLASSES: Record<PrincipleAccent, { tile: string; bar: string; check: string }> = {
  brand: { tile: 'bg-brand-50 text-brand-700 ring-brand-100', bar: 'bg-brand-600', check: 'text-brand-600' },
  sky: { tile: 'bg-sky-50 text-sky-700 ring-sky-100', bar: 'bg-sky-600', check: 'text-sky-600' },
  emerald: { tile: 'bg-emerald-50 text-emerald-700 ring-emerald-100', bar: 'bg-emerald-600', check: 'text-emerald-600' },
  amber: { tile: 'bg-amber-50 text-amber-700 ring-amber-100', bar: 'bg-amber-500', check: 'text-amber-600' },
  violet: { tile: 'bg-violet-50 text-violet-700 ring-violet-100', bar: 'bg-violet-600', check: 'text-violet-600' },
  rose: { tile: 'bg-rose-50 text-rose-700 ring-rose-100', bar: 'bg-rose-600', check: 'text-rose-600' },
};

const PILLAR_CLASSES: FeatureItemClasses = {
  item: 'flex items-center gap-3 rounded-xl bg-white/10 px-4 py-3 ring-1 ring-white/15',
  marker: 'flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-white/15',
  title: 'font-semibold',
  text: 'text-sm text-brand-50',
};

const INTRO_HEADING_CLASSES: SectionHeadingClasses = { box: 'max-w-3xl', title: 'text-2xl font-bold tracking-tight text-slate-900', text: 'mt-2 text-slate-600' };
const CTA_HEADING_CLASSES: SectionHeadingClasses = { box: 'max-w-2xl', title: 'text-lg font-semibold text-slate-900', text: 'mt-1 text-sm text-slate-600' };

function MissionBanner() {
  return (
    <section
      aria-labelledby="mission-title"
      className="relative overflow-hidden rounded-2xl bg-linear-to-br from-brand-900 via-brand-700 to-brand-600 px-6 py-8 text-white shadow-lg sm:px-10 sm:py-10"
    >
      {/* Soft light shapes behind the text; purely decorative. */}
      <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-16 h-64 w-64 rounded-full bg-white/10 blur-2xl" />
      <div aria-hidden="true" className="pointer-events-none absolute -bottom-28 left-1/3 h-56 w-56 rounded-full bg-sky-400/20 blur-3xl" />
      <div className="relative">
        <p className="text-sm font-semibold tracking-wider text-brand-100 uppercase">{MISSION.eyebrow}</p>
        <h2 id="mission-title" className="mt-2 max-w-3xl text-2xl font-bold tracking-tight text-balance sm:text-3xl">
          {MISSION.title}
        </h2>
        <p className="mt-4 max-w-3xl text-base leading-relaxed text-brand-50 sm:text-lg">{MISSION.body}</p>
        <ul className="mt-8 grid gap-3 sm:grid-cols-3">
          {MISSION.pillars.map((pillar) => (
            <FeatureItem key={pillar.title} feature={pillar} classes={PILLAR_CLASSES} />
          ))}
        </ul>
      </div>
    </section>
  );
}

function PrincipleCard({ principle, index }: { principle: Principle; index: number }) {
  const accent = ACCENT_CLASSES[principle.accent];
  const titleId = `principle-${principle.id}`;
  return (
    <Card className="relative flex h-full flex-col overflow-hidden p-6">
      <div aria-hidden="true" className={`absolute inset-x-0 top-0 h-1 ${accent.bar}`} />
      <article aria-labelledby={titleId} className="flex h-full flex-col">
        <div className="flex items-center justify-between gap-3">
          <span className={`flex h-11 w-11 items-center justify-center rounded-xl ring-1 ${accent.tile}`}>
            <principle.icon className="h-6 w-6" aria-hidden="true" />
          </span>
          <span className="text-sm font-semibold text-slate-600 tabular-nums">
            <span className="sr-only">Principle </span>
            {String(index + 1).padStart(2, '0')}
          </span>
        </div>
        <h3 id={titleId} className="mt-4 text-lg font-semibold text-slate-900">
          {principle.title}
        </h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-700">{principle.summary}</p>
        <ul className="mt-5 space-y-3 border-t border-slate-100 pt-5">
          {principle.bullets.map((bullet) => (
            <li key={bullet} className="flex gap-2.5 text-sm leading-relaxed text-slate-700">
              <Check className={`mt-0.5 h-4 w-4 shrink-0 ${accent.check}`} aria-hidden="true" />
              <span>{bullet}</span>
            </li>
          ))}
        </ul>
      </article>
    </Card>
  );
}

export default function PrinciplesPage() {
  return (
    <div className="min-h-screen">
      <PageHeader
        title="AI-Driven Operations Management"
        subtitle="Design Principles"
      />
      <main className="mx-auto max-w-7xl space-y-12 px-4 py-8 sm:px-6 sm:py-10">
        <MissionBanner />

        <section aria-labelledby="principles-title">
          <SectionHeading id="principles-title" title={PRINCIPLES_INTRO.title} text={PRINCIPLES_INTRO.body} classes={INTRO_HEADING_CLASSES} />
          <ol className="mt-6 grid gap-5 md:grid-cols-2 xl:grid-cols-3">
            {PRINCIPLES.map((principle, index) => (
              <li key={principle.id}>
                <PrincipleCard principle={principle} index={index} />
              </li>
            ))}
          </ol>
        </section>

        <section
          aria-labelledby="principles-cta-title"
          className="flex flex-col items-start gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:flex-row sm:items-center sm:justify-between sm:p-8"
        >
          <SectionHeading id="principles-cta-title" title={PRINCIPLES_CALL_TO_ACTION.title} text={PRINCIPLES_CALL_TO_ACTION.body} classes={CTA_HEADING_CLASSES} />
          <Link href={ROUTES.home} className={buttonClasses('primary', 'md', 'shrink-0')}>
            {PRINCIPLES_CALL_TO_ACTION.linkLabel}
            <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        </section>
      </main>
    </div>
  );
}
