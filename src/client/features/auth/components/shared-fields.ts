import type { TeamNames } from '../api/team-member-names';

/**
 * What the sign-in variants hand to each other: the team password is kept when
 * PIN setup opens, and the name is prefilled. The PIN never travels: every variant starts empty.
 */
export interface SharedFields {
  password: string;
  setPassword: (password: string) => void;
  name: string;
  setName: (name: string) => void;
  teamNames: TeamNames;
}
