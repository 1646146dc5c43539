import { useRef, useState } from 'react';
import { Input } from '../../../components/ui/input';
import { useLogin, type LoginHandlers } from '../api/login';
import { canSubmitLogin } from '../sign-in-rules';
import { FormField, hintIdOf } from './form-field';
import { NameCombobox } from './name-combobox';
import { PinField } from './pin-field';
import { LinkButton, SignInCard, SubmitButton } from './sign-in-card';
import type { SharedFields } from './shared-fields';

interface StandardLoginFormProps {
  fields: SharedFields;
  onPinSetupRequired: LoginHandlers['onPinSetupRequired'];
  onForgotPin: () => void;
}

/** The team login of spec section 2: team password, name with autocomplete, PIN (empty the first time). */
export function StandardLoginForm({ fields, onPinSetupRequired, onForgotPin }: StandardLoginFormProps) {
  const { password, setPassword, name, setName, teamNames } = fields;
  const [pin, setPin] = useState('');
  const pinRef = useRef<HTMLInputElement>(null);
  const login = useLogin({
    onPinSetupRequired,
    onFailure: () => {
      setPin('');
      pinRef.current?.focus();
    },
  });
  const valid = canSubmitLogin({ password, name, pin });
  // Focus goes to the first field still empty; back from PIN setup with both kept, that is the PIN.
  const firstFocus = password === '' ? 'password' : name.trim() === '' ? 'name' : 'pin';

  return (
    <SignInCard
      title="Team Sign In"
      description="Use the team password, your full name and your personal 4-digit PIN."
      onSubmit={() => {
        if (valid && !login.isPending) login.mutate({ password, name: name.trim(), pin });
      }}
      footer={
        <LinkButton onClick={onForgotPin} disabled={login.isPending}>
          Forgot your PIN?
        </LinkButton>
      }
    >
      <FormField id="team-password" label="Team password" hint="The shared password your admin gave the team.">
        <Input
          id="team-password"
          name="team-password"
          type="password"
          autoComplete="current-password"
          autoFocus={firstFocus === 'password'}
          aria-describedby={hintIdOf('team-password')}
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
          }}
          onBlur={() => {
            teamNames.request(password);
          }}
        />
      </FormField>
      <NameCombobox
        id="member-name"
        label="Name"
        value={name}
        onChange={setName}
        teamNames={teamNames}
        password={password}
        autoFocus={firstFocus === 'name'}
      />
      <PinField
        id="pin"
        label="PIN"
        hint="4 digits. New to the team? Open the enrollment link the admin sent you to create your PIN."
        value={pin}
        onChange={setPin}
        autoFocus={firstFocus === 'pin'}
        inputRef={pinRef}
      />
      <SubmitButton label="Sign In" pendingLabel="Signing in..." pending={login.isPending} disabled={!valid} />
    </SignInCard>
  );
}
