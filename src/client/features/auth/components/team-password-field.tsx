import { Input } from '../../../components/ui/input';
import { FormField, hintIdOf } from './form-field';
import type { SharedFields } from './shared-fields';

interface TeamPasswordFieldProps {
  id: string;
  fields: SharedFields;
  hint?: string;
  autoFocus: boolean;
}

/** The team password; leaving it asks for the team's names, which the name field then suggests. */
export function TeamPasswordField({ id, fields, hint, autoFocus }: TeamPasswordFieldProps) {
  const { password, setPassword, teamNames } = fields;
  return (
    <FormField id={id} label="Team password" hint={hint}>
      <Input
        id={id}
        name="team-password"
        type="password"
        autoComplete="current-password"
        autoFocus={autoFocus}
        aria-describedby={hint === undefined ? undefined : hintIdOf(id)}
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
        }}
        onBlur={() => {
          teamNames.request(password);
        }}
      />
    </FormField>
  );
}
