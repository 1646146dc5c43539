import { type Architecture, type DiagramComponent } from '../../common/contract/architecture.js';
import { QA_TEST_COMPONENT_ID } from '../../common/api/architecture.js';

/**
 * The architecture under review: the AI-driven incident-management platform.
 *
 * Reviewing another architecture means editing this file. Ids are the keys comments attach to: once
 * shipped, an id never changes (rename the title instead), or the comments on it are orphaned.
 * loadArchitecture() in validate.ts checks every cross-reference at start-up.
 */

/*
 * Diagram layout, in React Flow pixels. The main flow runs left to right, one column per phase,
 * 240 px apart; a phase with two boxes uses the upper and lower rows (120 px apart), a phase with
 * one box sits between them. The Connection Hub panel runs above the flow (its connectors feed
 * Detection and carry Response actions out), the IT Knowledge Graph panel below it (read and written
 * by the flagged boxes). sm–lg boxes fit inside a 240 px column; xl boxes span two columns and are
 * only used on the panel rows, where nothing sits beside them.
 */
const COLUMN_WIDTH = 240;
const HUB_ROW_Y = 0;
const UPPER_ROW_Y = 180;
const MIDDLE_ROW_Y = 240;
const LOWER_ROW_Y = 300;
const GRAPH_ROW_Y = 480;

const column = (index: number) => index * COLUMN_WIDTH;

/*
 * One colour per phase. The dark ones (all -700 shades) take white text: each reaches at least
 * 4.5:1 against #ffffff. The two side-panel colours are light and take dark text (#111827), at
 * least 4.5:1 as well. validate.test.ts checks both ratios, so a new colour cannot slip below AA.
 */
const PHASE_COLORS = {
  Detection: '#1d4ed8', // blue, white text
  'Noise Removal': '#6d28d9', // violet, white text
  Initiation: '#b45309', // amber, white text
  Context: '#0f766e', // teal, white text
  Triage: '#be123c', // rose, white text
  Investigation: '#4338ca', // indigo, white text
  Response: '#15803d', // green, white text
  Validation: '#0e7490', // cyan, white text
  Outcome: '#374151', // slate grey, white text
  'IT Knowledge Graph': '#fde68a', // light amber, dark text
  'Connection Hub': '#e2e8f0', // light slate, dark text
} as const satisfies Record<DiagramComponent['phase'], string>;

/** The colour of a box follows its phase, so a phase change can never leave a box in the wrong colour. */
function component(fields: Omit<DiagramComponent, 'color'>): DiagramComponent {
  return { ...fields, color: PHASE_COLORS[fields.phase] };
}

const diagramComponents: DiagramComponent[] = [
  // Detection
  component({
    id: 'observability-signals',
    title: 'Observability Signals',
    description:
      'Alerts, metric threshold and anomaly breaches, log patterns and trace error rates arrive from the monitoring tools through the Connection Hub and are normalised into one event schema (source, resource, check, severity, timestamps) with the raw payload kept for investigation.',
    phase: 'Detection',
    x: column(0),
    y: UPPER_ROW_Y,
    width: 'md',
  }),
  component({
    id: 'change-events',
    title: 'Change & Deployment Events',
    description:
      'Deployments, feature-flag flips, configuration and infrastructure-as-code changes and approved change requests are captured as events and written to the knowledge graph against the services and CIs they touched, so later phases can ask "what changed here?".',
    phase: 'Detection',
    x: column(0),
    y: LOWER_ROW_Y,
    width: 'md',
    connectsToKnowledgeGraph: true,
  }),
  // Noise Removal
  component({
    id: 'event-deduplication',
    title: 'Deduplication & Suppression',
    description:
      'Repeated events are folded by fingerprint into one alert with an occurrence count; flapping checks are damped, and events during maintenance windows or from known-noisy sources are suppressed by explicit, auditable rules rather than silently dropped.',
    phase: 'Noise Removal',
    x: column(1),
    y: UPPER_ROW_Y,
    width: 'md',
  }),
  component({
    id: 'event-correlation',
    title: 'Topology-Aware Correlation',
    description:
      'Alerts are grouped into one situation by time window, shared CIs and dependency paths from the knowledge graph, and by proximity to recent changes; each grouping keeps the reason it was made so an engineer can split a wrong correlation.',
    phase: 'Noise Removal',
    x: column(1),
    y: LOWER_ROW_Y,
    width: 'md',
    connectsToKnowledgeGraph: true,
  }),
  // Initiation
  component({
    id: 'ai-initiated',
    title: 'AI-Initiated',
    description:
      'A correlated situation becomes an incident automatically when its predicted impact crosses the threshold set per service tier; the incident record states which signals and which rule or model opened it, and duplicates of an open incident are attached instead of opened.',
    phase: 'Initiation',
    x: column(2),
    y: UPPER_ROW_Y,
    width: 'sm',
  }),
  component({
    id: 'human-initiated',
    title: 'Human-Initiated',
    description:
      'An engineer or the service desk declares an incident from the EM console, a chat command or an ITSM ticket, for problems monitoring did not catch (customer reports, partner outages); it enters the same flow as an AI-initiated incident, with the declarer as first responder.',
    phase: 'Initiation',
    x: column(2),
    y: LOWER_ROW_Y,
    width: 'sm',
  }),
  // Context
  component({
    id: 'context-enrichment',
    title: 'Context Enrichment',
    description:
      'The incident is enriched from the knowledge graph with owning team and on-call, service tier and SLOs, changes in the last 24 hours on the affected CIs, linked runbooks and the most similar past incidents with their resolutions.',
    phase: 'Context',
    x: column(3),
    y: UPPER_ROW_Y,
    width: 'md',
    connectsToKnowledgeGraph: true,
  }),
  component({
    id: 'blast-radius-analysis',
    title: 'Impact & Blast Radius',
    description:
      'Walks upstream and downstream dependencies in the knowledge graph to list the affected business services, customer-facing endpoints and regions, and estimates user impact from live traffic, so severity rests on impact rather than on the loudest alert.',
    phase: 'Context',
    x: column(3),
    y: LOWER_ROW_Y,
    width: 'md',
    connectsToKnowledgeGraph: true,
  }),
  // Triage
  component({
    id: 'agentic-triage',
    title: 'Agentic Triage',
    description:
      'A triage agent proposes severity, priority and the assignment group with its reasoning and confidence; low-severity proposals apply automatically, while Sev1/Sev2 and any low-confidence proposal wait for a human approval gate in the EM console or chat.',
    phase: 'Triage',
    x: column(4),
    y: UPPER_ROW_Y,
    width: 'lg',
    connectsToKnowledgeGraph: true,
  }),
  component({
    id: 'responder-engagement',
    title: 'Responder Engagement',
    description:
      'Pages the owning on-call through the paging tool, opens a chat war room with the incident context pinned, assigns incident commander and communications roles, and drafts the first stakeholder and status-page update for a human to send.',
    phase: 'Triage',
    x: column(4),
    y: LOWER_ROW_Y,
    width: 'md',
  }),
  // Investigation
  component({
    id: 'root-cause-analysis',
    title: 'Multi-Agent Root-Cause Analysis',
    description:
      'Specialist agents query metrics, logs, traces and change history in parallel and return ranked root-cause hypotheses, each with the evidence (queries, graphs, diffs) an engineer can re-run; engineers confirm or reject hypotheses and the agents re-plan.',
    phase: 'Investigation',
    x: column(5),
    y: MIDDLE_ROW_Y,
    width: 'lg',
    connectsToKnowledgeGraph: true,
  }),
  // Response
  component({
    id: 'remediation-plan',
    title: 'Remediation Plan',
    description:
      'Matches the confirmed hypothesis to runbooks and past fixes and proposes remediation steps (roll back a deploy, fail over, scale out, disable a flag), each with its expected effect, blast radius and rollback path.',
    phase: 'Response',
    x: column(6),
    y: UPPER_ROW_Y,
    width: 'md',
    connectsToKnowledgeGraph: true,
  }),
  component({
    id: 'approved-automation',
    title: 'Approved Automation',
    description:
      'Executes approved steps through the orchestration connectors with a dry run first, a named human approver for every production-changing action, a kill switch, and every command and result written to the incident timeline and audit log.',
    phase: 'Response',
    x: column(6),
    y: LOWER_ROW_Y,
    width: 'md',
  }),
  // Validation
  component({
    id: 'recovery-verification',
    title: 'Recovery Verification',
    description:
      'Confirms that the golden signals and SLO burn rate of every affected service are back to baseline and that the original alerts have cleared, over a watch window set by service tier, before the incident may be resolved; a relapse sends it back to investigation.',
    phase: 'Validation',
    x: column(7),
    y: MIDDLE_ROW_Y,
    width: 'md',
  }),
  // Outcome
  component({
    id: 'post-incident-review',
    title: 'Post-Incident Review',
    description:
      'Drafts a blameless post-incident review from the timeline, chat and actions taken (impact, detection and response times, contributing factors), tracks its action items in the ITSM tool and writes the resolution back to the knowledge graph for future matching.',
    phase: 'Outcome',
    x: column(8),
    y: UPPER_ROW_Y,
    width: 'md',
    connectsToKnowledgeGraph: true,
  }),
  component({
    id: 'prevention-feedback',
    title: 'Problem & Prevention Feedback',
    description:
      'Recurring causes across incidents open problem records, tune correlation and suppression rules, and feed the change-risk model that scores upcoming changes, so the same failure is caught earlier or prevented next time.',
    phase: 'Outcome',
    x: column(8),
    y: LOWER_ROW_Y,
    width: 'md',
    connectsToKnowledgeGraph: true,
  }),
  // IT Knowledge Graph side panel
  component({
    id: 'service-topology',
    title: 'Service & CI Topology',
    description:
      'The graph of configuration items, services, business services and their dependencies, with owning team, on-call schedule and tier on each node; built from the CMDB, cloud inventories and trace-derived call paths, and reconciled continuously rather than trusted as documented.',
    phase: 'IT Knowledge Graph',
    x: column(2),
    y: GRAPH_ROW_Y,
    width: 'xl',
  }),
  component({
    id: 'operational-history',
    title: 'Operational History',
    description:
      'Changes, incidents, problems, post-incident reviews and runbooks linked to the CIs they concern, with a vector index over their text for retrieval by the agents; each fact keeps its source and timestamp so stale knowledge can be aged out.',
    phase: 'IT Knowledge Graph',
    x: column(5),
    y: GRAPH_ROW_Y,
    width: 'xl',
  }),
  // Connection Hub side panel
  component({
    id: 'telemetry-connectors',
    title: 'Observability & Change Connectors',
    description:
      'Managed connectors for monitoring, logging, tracing and CI/CD tools (for example Prometheus, Datadog, Splunk, CloudWatch, GitHub Actions), each with its own credentials, health status, backfill and rate limits, feeding Detection.',
    phase: 'Connection Hub',
    x: column(0),
    y: HUB_ROW_Y,
    width: 'xl',
  }),
  component({
    id: 'workflow-connectors',
    title: 'ITSM, Chat & Automation Connectors',
    description:
      'Two-way connectors to the ITSM tool, paging, chat and orchestration (for example ServiceNow, PagerDuty, Slack or Teams, Ansible, Kubernetes), so tickets, pages, war rooms and approved actions stay in sync with the incident record.',
    phase: 'Connection Hub',
    x: column(4),
    y: HUB_ROW_Y,
    width: 'xl',
  }),
];

export const architecture: Architecture = {
  title: 'AI-Driven Operations Management Platform',
  groups: [
    {
      id: 'platform-wide-functionality',
      title: 'Platform-Wide Functionality',
      description: 'Identity, access, data and the conversational interface that every workflow and console is built on.',
      cards: [
        {
          id: 'authentication-and-sso',
          title: 'Authentication and SSO',
          description:
            'Single sign-on through the corporate identity provider over SAML 2.0 or OIDC, with SCIM provisioning so joiners, movers and leavers are reflected without manual account work.',
          highlights: [
            'SAML 2.0 and OIDC with the enterprise IdP; MFA enforced by the IdP',
            'SCIM 2.0 provisioning and de-provisioning of users and groups',
            'Short-lived sessions, revoked on de-provisioning',
            'Scoped, expiring service tokens for integrations and agents',
          ],
        },
        {
          id: 'access-controls-and-rbac',
          title: 'Access Controls and RBAC',
          description:
            'Role-based access scoped to service ownership: a team acts on the incidents, automations and data of the services it owns, and AI agents act with the permissions of the role that approved them.',
          highlights: [
            'Roles (viewer, responder, incident commander, admin) granted per service or team',
            'IdP groups mapped to roles through SCIM',
            'Agents never hold broader rights than their approving human',
            'Break-glass access that is time-boxed and audited',
          ],
        },
        {
          id: 'unified-data-connections-and-itkg',
          title: 'Unified Data Connections and ITKG',
          description:
            'One connection hub for telemetry, change, ITSM and collaboration tools, feeding the IT knowledge graph (ITKG) of CIs, services, dependencies, owners and changes that every workflow queries.',
          highlights: [
            'Managed connectors with per-connector health, backfill and rate limits',
            'ITKG of CIs, services, dependencies, owners and changes, reconciled continuously',
            'Trace-derived dependencies checked against the CMDB',
            'Graph and vector retrieval for agents over incidents, runbooks and reviews',
          ],
        },
        {
          id: 'data-management-and-compliance',
          title: 'Data Management and Compliance',
          description:
            'Retention, residency and redaction rules for operational data: PII and secrets are redacted before events, logs or chat reach a model, and every AI and human action is kept in an audit trail.',
          highlights: [
            'Retention periods per data class (raw events, incidents, audit log)',
            'PII and secret redaction before data reaches an AI model',
            'Tamper-evident audit trail of AI recommendations, approvals and actions',
            'Data residency by region; export for audits and legal hold',
          ],
        },
        {
          id: 'ai-chat-interface',
          title: 'AI Chat Interface',
          description:
            'A conversational assistant in the web console and in Slack or Teams that answers questions about incidents, services and changes from the knowledge graph, citing its sources, and runs actions only through the same approval gates as the console.',
          highlights: [
            'Answers cite the graph nodes, tickets and documents they come from',
            'Natural-language questions like "what changed on checkout in the last hour?"',
            'Actions proposed in chat still need an approver with the right role',
            'Same assistant in the web console, Slack and Teams',
          ],
        },
      ],
    },
    {
      id: 'ai-driven-operations-workflows',
      title: 'AI-Driven Operations Workflows',
      description: 'The operational workflows from the first signal to prevention, with AI agents doing the legwork and humans deciding.',
      cards: [
        {
          id: 'event-management',
          title: 'Event Management',
          description:
            'Turns the raw event stream into a few actionable situations: normalisation, deduplication, suppression and topology-aware correlation, with the reason for every grouping visible to the engineer.',
          highlights: [
            'Fingerprint deduplication and flap damping',
            'Maintenance-window and rule-based suppression, audited',
            'Correlation by time, topology and recent changes',
            'Noise-reduction ratio reported per source',
          ],
        },
        {
          id: 'agentic-incident-management',
          title: 'Agentic Incident Management',
          description:
            'AI agents open, enrich, triage and investigate incidents and propose remediation, while humans approve severity for major incidents and every production-changing action.',
          highlights: [
            'Agentic triage with confidence and reasoning shown',
            'Human approval gates for Sev1/Sev2 and production changes',
            'Multi-agent root-cause analysis with re-runnable evidence',
            'Runbook automation with dry run, kill switch and audit trail',
          ],
        },
        {
          id: 'ai-incident-prevention',
          title: 'AI Incident Prevention',
          description:
            'Predicts the risk of upcoming changes from the history of similar changes and their incidents, and flags degradation trends before they breach SLOs.',
          highlights: [
            'Change-risk score on each change request, with the past incidents behind it',
            'Early warning on SLO burn-rate and capacity trends',
            'Recurring-cause detection that opens problem records',
            'Risk feedback to the change advisory process',
          ],
        },
        {
          id: 'ai-operations-collaboration',
          title: 'AI Operations Collaboration',
          description:
            'ChatOps for incidents: war rooms opened with context pinned, role assignment, AI-drafted stakeholder updates and a timeline that records chat decisions next to system actions.',
          highlights: [
            'War room in Slack or Teams created per major incident',
            'Incident commander and communications roles assigned in chat',
            'AI-drafted stakeholder and status-page updates, sent by a human',
            'Hand-over summaries at shift change',
          ],
        },
        {
          id: 'unified-analytics',
          title: 'Unified Analytics',
          description:
            'One view of operational performance: MTTD, MTTA and MTTR by service and team, noise reduction, automation rate and how often AI recommendations were accepted or overridden.',
          highlights: [
            'MTTD, MTTA and MTTR trends per service, team and severity',
            'Alert-to-incident ratio and noise reduction per source',
            'Acceptance and override rate of AI triage and remediation',
            'SLO attainment and error-budget consumption',
          ],
        },
      ],
    },
    {
      id: 'user-experience-models',
      title: 'User Experience Models',
      description: 'How people work with the platform: an operator console, shared human-AI workflows and a web console for everyone else.',
      cards: [
        {
          id: 'em-console',
          title: 'EM Console',
          description:
            'The event and incident management console for operations centre engineers: a live situation board with correlated alerts, incident queues by severity and the approval inbox for agent proposals.',
          highlights: [
            'Live situation board with correlated alerts and their grouping reasons',
            'Approval inbox for agent triage and remediation proposals',
            'Keyboard-driven queues for high-volume operators',
            'Split or merge situations in one action',
          ],
        },
        {
          id: 'human-ai-collaboration',
          title: 'Human-AI Collaboration',
          description:
            'The working agreement between engineers and agents: what an agent may do alone, what needs approval, and how every recommendation shows its evidence and confidence so a human can accept, edit or reject it.',
          highlights: [
            'Autonomy levels per action type and service tier',
            'Every recommendation carries evidence and a confidence score',
            'Accept, edit or reject, with the reason fed back to the agents',
            'Human override always available and always recorded',
          ],
        },
        {
          id: 'ai-web-console',
          title: 'AI Web Console',
          description:
            'A browser workspace for service owners, managers and stakeholders: incident status, service health and the AI assistant, without needing the operator console.',
          highlights: [
            'Service health and open incidents for the services a user owns',
            'Incident timelines and post-incident reviews to read and comment on',
            'The AI assistant for questions about services and changes',
            'Read-only views for stakeholders outside operations',
          ],
        },
      ],
    },
  ],
  diagram: {
    components: diagramComponents,
    edges: [
      { from: 'telemetry-connectors', to: 'observability-signals', label: 'ingest' },
      { from: 'observability-signals', to: 'event-deduplication' },
      { from: 'event-deduplication', to: 'event-correlation' },
      { from: 'change-events', to: 'event-correlation', label: 'recent changes' },
      { from: 'event-correlation', to: 'ai-initiated', label: 'situation' },
      { from: 'ai-initiated', to: 'context-enrichment' },
      { from: 'human-initiated', to: 'context-enrichment' },
      { from: 'context-enrichment', to: 'blast-radius-analysis' },
      { from: 'blast-radius-analysis', to: 'agentic-triage' },
      { from: 'agentic-triage', to: 'responder-engagement', label: 'approved' },
      { from: 'agentic-triage', to: 'root-cause-analysis' },
      { from: 'responder-engagement', to: 'root-cause-analysis' },
      { from: 'root-cause-analysis', to: 'remediation-plan', label: 'confirmed cause' },
      { from: 'remediation-plan', to: 'approved-automation', label: 'approved steps' },
      { from: 'remediation-plan', to: 'recovery-verification', label: 'manual fix' },
      { from: 'approved-automation', to: 'recovery-verification' },
      { from: 'recovery-verification', to: 'root-cause-analysis', label: 'not recovered' },
      { from: 'recovery-verification', to: 'post-incident-review', label: 'resolved' },
      { from: 'post-incident-review', to: 'prevention-feedback' },
    ],
    // The flow in the order an incident travels it; the two side panels serve every phase, so they
    // are revealed last, once the boxes that use them are on screen.
    stepOrder: [
      'observability-signals',
      'change-events',
      'event-deduplication',
      'event-correlation',
      'ai-initiated',
      'human-initiated',
      'context-enrichment',
      'blast-radius-analysis',
      'agentic-triage',
      'responder-engagement',
      'root-cause-analysis',
      'remediation-plan',
      'approved-automation',
      'recovery-verification',
      'post-incident-review',
      'prevention-feedback',
      'service-topology',
      'operational-history',
      'telemetry-connectors',
      'workflow-connectors',
    ],
  },
  // 'Human-Initiated' ranks first and the hidden QA component 17th; the 15 between
  // are the main-flow boxes in flow order. Anything else (cards, side panels) ranks 999.
  componentOrder: [
    'human-initiated',
    'observability-signals',
    'change-events',
    'event-deduplication',
    'event-correlation',
    'ai-initiated',
    'context-enrichment',
    'blast-radius-analysis',
    'agentic-triage',
    'responder-engagement',
    'root-cause-analysis',
    'remediation-plan',
    'approved-automation',
    'recovery-verification',
    'post-incident-review',
    'prevention-feedback',
    QA_TEST_COMPONENT_ID,
  ],
};
