import {
  Activity,
  BrainCircuit,
  Building2,
  Eye,
  GraduationCap,
  History,
  Layers,
  LibraryBig,
  PlugZap,
  Waypoints,
  UserRoundCog,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import { ASSISTANT_NAME } from '../../../common/product';

/** An entry of a side column of the diagram (marked with a dot: an icon each would cost ~100 B gzip). */
export interface DiagramItem {
  title: string;
  description: string;
}

/** A side column of the diagram: who or what it stands for, and its entries. */
export interface DiagramColumnContent {
  title: string;
  caption: string;
  icon: LucideIcon;
  items: readonly DiagramItem[];
}

export interface CapabilityItem extends DiagramItem {
  icon: LucideIcon;
}

export interface PlatformBlock extends CapabilityItem {
  /** The block's focus areas, shown as tags. */
  focus: readonly string[];
}

export const HERO = {
  overline: `${ASSISTANT_NAME} capabilities overview`,
  eyebrow: 'AI for IT operations',
  title: `${ASSISTANT_NAME}, the AI platform for IT operations`,
  body: `${ASSISTANT_NAME} connects the people, tools and knowledge of the IT organisation. It senses what is happening across the estate, understands how services, teams and processes fit together, and helps subject-matter experts respond, plan and learn faster, with the full context in front of them.`,
} as const;

/** The four highlight markers (the 40K+ claim is a business constant). */
export const HIGHLIGHTS: readonly CapabilityItem[] = [
  {
    title: '40K+ knowledge documents',
    description: 'Runbooks, postmortems, tickets and architecture notes, indexed and linked.',
    icon: LibraryBig,
  },
  {
    title: 'Real-time stream processing',
    description: 'Alerts, metrics, logs and change events correlated as they arrive.',
    icon: Activity,
  },
  {
    title: 'Multi-agent analysis',
    description: 'Specialised agents for triage, diagnosis and remediation work as one.',
    icon: Waypoints,
  },
  {
    title: 'Historical analysis in seconds',
    description: 'Similar incidents and the fixes that worked, across years of history.',
    icon: History,
  },
];

export const DIAGRAM_INTRO = {
  title: 'How it fits together',
  body: `Teams across the IT organisation feed ${ASSISTANT_NAME} with signals, changes and knowledge. The platform turns them into shared understanding, and subject-matter experts act on it, with every outcome flowing back into what ${ASSISTANT_NAME} learns.`,
} as const;

export const IT_ORGANIZATION: DiagramColumnContent = {
  title: 'IT Organization',
  caption: 'Teams whose signals and knowledge flow in',
  icon: Building2,
  items: [
    { title: 'Centralized Operations Center', description: '24×7 monitoring, event triage and major-incident coordination.' },
    { title: 'Site Reliability', description: 'SLOs, error budgets and production readiness of critical services.' },
    { title: 'Network', description: 'WAN, LAN, load balancers, DNS and firewall operations.' },
    { title: 'Infrastructure', description: 'Compute, storage and virtualisation in the data centres.' },
    { title: 'Cloud', description: 'Cloud accounts, landing zones, capacity and cost.' },
    { title: 'Data Engineering', description: 'Pipelines, data platforms and the freshness of data products.' },
    { title: 'Application Development', description: 'The teams who build and own the business applications.' },
    { title: 'Platform Engineering', description: 'The internal developer platform, CI/CD and Kubernetes.' },
  ],
};

export const PLATFORM = {
  title: `${ASSISTANT_NAME} AI Platform`,
  role: 'Intelligent Connector and Collaborator',
  /** The reasoning loop the platform runs on every signal. */
  core: [
    {
      title: 'Awareness',
      focus: ['Sensing', 'Comparing', 'Correlation'],
      description: 'Watches signals as they stream in, compares them with normal baselines and groups related ones into one incident.',
      icon: Eye,
    },
    {
      title: 'Understanding',
      focus: ['Services', 'Teams', 'Processes'],
      description: 'Knows which services depend on each other, who owns them and which process applies.',
      icon: BrainCircuit,
    },
    {
      title: 'Intelligent Action',
      focus: ['Agent coordination'],
      description: 'Coordinates triage, diagnosis and remediation agents, and routes each proposed step to a human for approval.',
      icon: Workflow,
    },
    {
      title: 'Learning',
      focus: ['Continuous improvement'],
      description: 'Learns from every resolved incident, postmortem and responder rating, so the next suggestion is sharper.',
      icon: GraduationCap,
    },
  ],
  /** The layers the loop stands on. */
  foundation: [
    {
      title: 'Intelligent Processing',
      focus: ['Context retrieval via agentic RAG', 'Knowledge indexing and graph building', 'Multi-modal data stores'],
      description: 'Retrieves exactly the context an agent needs, keeps the IT knowledge graph current, and stores text, telemetry and topology side by side.',
      icon: Layers,
    },
    {
      title: 'Enterprise Systems',
      focus: ['Observability', 'Orchestration', 'ITSM'],
      description: 'Reads from and acts through the tools already in place: monitoring and APM, automation and CI/CD, ticketing and the CMDB.',
      icon: PlugZap,
    },
  ],
} as const satisfies { title: string; role: string; core: readonly PlatformBlock[]; foundation: readonly PlatformBlock[] };

export const SME_ACTIONS: DiagramColumnContent = {
  title: 'SME Actions',
  caption: 'What subject-matter experts do with it',
  icon: UserRoundCog,
  items: [
    { title: 'Incident Response', description: 'Triage with correlated alerts, a probable cause and similar past incidents.' },
    { title: 'Knowledge Queries', description: 'Ask in plain language; answers cite runbooks, tickets and postmortems.' },
    { title: 'Change Planning', description: 'See blast radius, conflicting changes and past failures before approval.' },
    { title: 'Service Operations', description: 'Run health checks, requests and runbook steps with guided automation.' },
    { title: 'Performance Analysis', description: 'Compare trends against baselines and spot capacity risks early.' },
    { title: 'Collaboration', description: 'Shared context, summaries and hand-over notes in the incident channel.' },
  ],
};

export const COPY_LINK_TOASTS = {
  copied: { title: 'Link copied', description: 'The capabilities overview link is on your clipboard.' },
  failed: { title: 'Could not copy link', description: 'Copy the address from the browser bar instead.', variant: 'destructive' },
} as const;
