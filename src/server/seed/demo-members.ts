/** The demo team: an IT operations group reviewing the platform together. */
export const DEMO_MEMBERS = {
  priya: { name: 'Priya Raman', role: 'SRE lead' },
  tomasz: { name: 'Tomasz Nowak', role: 'network engineer' },
  aisha: { name: 'Aisha Okonkwo', role: 'platform engineer (Kubernetes)' },
  marcus: { name: 'Marcus Lindqvist', role: 'security engineer' },
  hannah: { name: "Hannah O'Brien", role: 'service desk lead' },
  diego: { name: 'Diego Fernández', role: 'observability engineer' },
  kenji: { name: 'Kenji Watanabe', role: 'database reliability engineer' },
  fatima: { name: 'Fatima Haddad', role: 'major incident manager' },
  olivia: { name: 'Olivia Brennan', role: 'change and problem manager' },
  samuel: { name: 'Samuel Mensah', role: 'NOC shift lead' },
  ingrid: { name: 'Ingrid Halvorsen', role: 'automation engineer' },
  rafael: { name: 'Rafael Costa', role: 'AIOps / ML engineer' },
} as const;

export type DemoMemberKey = keyof typeof DEMO_MEMBERS;
