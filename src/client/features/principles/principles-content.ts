import { Bot, Boxes, Handshake, LibraryBig, Radar, RefreshCw, Rocket, Zap, type LucideIcon } from 'lucide-react';
import { ASSISTANT_NAME } from '../../../common/product';

/** The colour family of a principle's icon tile; the page maps each to full Tailwind class strings. */
export type PrincipleAccent = 'brand' | 'emerald' | 'sky' | 'amber' | 'rose' | 'violet';

export interface Principle {
  id: string;
  title: string;
  /** One line under the title. */
  summary: string;
  icon: LucideIcon;
  accent: PrincipleAccent;
  /** Every principle card has exactly three bullets, so the cards line up. */
  bullets: readonly [string, string, string];
}

export interface MissionPillar {
  title: string;
  description: string;
  icon: LucideIcon;
}

export const MISSION = {
  eyebrow: 'Our mission',
  title: 'Build fast, ship prototypes, iterate with the people on call',
  body: `We are an IT operations group building the AI incident-management platform we want to be paged with. We work in short cycles: put a working prototype in front of responders, learn from real incidents, and improve it week after week, so ${ASSISTANT_NAME} gets a little sharper every time the pager goes off.`,
  pillars: [
    { title: 'Build fast', description: 'Prototype in days, not quarters.', icon: Zap },
    { title: 'Ship prototypes', description: 'Real responders, real incidents, early.', icon: Rocket },
    { title: 'Iterate', description: 'Measure, learn, refine, repeat.', icon: RefreshCw },
  ],
} as const satisfies { eyebrow: string; title: string; body: string; pillars: readonly MissionPillar[] };

/** The six principles, in this order. */
export const PRINCIPLES: readonly Principle[] = [
  {
    id: 'capture-knowledge',
    title: 'Capture Knowledge Everywhere',
    summary: `Every incident, fix and chat thread becomes context for the next responder, and for ${ASSISTANT_NAME}.`,
    icon: LibraryBig,
    accent: 'brand',
    bullets: [
      'Feed every blameless postmortem, incident timeline and root-cause note into the IT knowledge graph as part of closing the incident.',
      'Keep runbooks as code in Git, next to the services they operate, and review them like any other change.',
      'Link alerts, tickets, changes and chat threads to the service and configuration item they concern, so context is one query away on the next page.',
    ],
  },
  {
    id: 'modular-capabilities',
    title: 'Flexible, Modular Capabilities',
    summary: 'Small, composable agents and connectors behind stable contracts, so any piece can be replaced without a rewrite.',
    icon: Boxes,
    accent: 'sky',
    bullets: [
      'Give each agent one job (correlation, triage, diagnosis, remediation) and let agents talk through versioned APIs and events.',
      'Treat connectors to observability, CMDB and ITSM tools as plug-ins: adding a monitoring source is configuration, not a fork.',
      'Keep model providers and vector stores behind interfaces, so we can swap an LLM or a retrieval back end as better ones appear.',
    ],
  },
  {
    id: 'collaborate',
    title: 'Collaborate to Win',
    summary: `SRE, network, cloud, data and application teams shape the platform together, with ${ASSISTANT_NAME} as a teammate in the loop.`,
    icon: Handshake,
    accent: 'emerald',
    bullets: [
      'Co-design each workflow with the on-call engineers who will use it; every feature has a named reviewer from the team it affects.',
      `Bring ${ASSISTANT_NAME} into the incident channel to post the timeline, similar past incidents and likely owners where responders already work.`,
      'Review the architecture in the open: comments and votes on this site shape the roadmap, and decisions are recorded as ADRs.',
    ],
  },
  {
    id: 'adapt',
    title: 'Adapt in Real Time',
    summary: 'Production changes by the minute; the platform senses shifts and updates its picture as they happen.',
    icon: Radar,
    accent: 'amber',
    bullets: [
      'Process alerts, metrics, logs and change events as streams, and correlate them within seconds instead of in nightly batches.',
      'Refresh service topology and ownership continuously from discovery, deployment pipelines and the CMDB, so triage never works from a stale map.',
      'Re-rank hypotheses and suggested actions as new signals arrive during an incident, and show responders what changed and why.',
    ],
  },
  {
    id: 'ship-to-learn',
    title: 'Ship to Learn',
    summary: 'Small, frequent releases behind feature flags teach us more than long projects; we measure outcomes, not output.',
    icon: Rocket,
    accent: 'violet',
    bullets: [
      'Put a prototype in front of real responders within two weeks, starting in shadow mode on live incident traffic.',
      'Gate every agent action and new workflow behind a feature flag, so it rolls out team by team and rolls back in seconds.',
      'Judge each release by MTTD, MTTR, alert-noise reduction and responder feedback, and retire what does not move them.',
    ],
  },
  {
    id: 'augment-then-automate',
    title: 'Augment, Then Automate',
    summary: 'Earn trust by assisting engineers first; automate only what has proven safe, and keep a human in control.',
    icon: Bot,
    accent: 'rose',
    bullets: [
      `Start with recommendations: ${ASSISTANT_NAME} drafts the diagnosis and the runbook steps, the engineer decides and executes.`,
      'Require a human approval gate before any automated remediation touches production, with blast radius and rollback plan shown up front.',
      'Promote an action to full automation only after a track record of successful approved runs, and audit every automated step.',
    ],
  },
];

export const PRINCIPLES_INTRO = {
  title: 'Six principles we build by',
  body: 'Every component in the architecture review is held to these principles. They keep the platform useful at 3 a.m., safe to change and worth trusting.',
} as const;

export const PRINCIPLES_CALL_TO_ACTION = {
  title: 'Put the principles to work',
  body: 'See a component that breaks one of them? Say so in a comment on the architecture review, and propose the change that would fix it.',
  linkLabel: 'Review the architecture',
} as const;
