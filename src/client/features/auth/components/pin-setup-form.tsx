import { useRef, useState, type ReactNode } from 'react';
import { Input } from '../../../components/ui/input';
import { useSetupPin } from '../api/setup-pin';
import { canSubmitPinSetup } from '../sign-in-rules';
import { FormField } from './form-field';
import { NameCombobox } from './name-combobox';
import { PinField } from './pin-field';
import { SignInCard, SubmitButton } from './sign-in-card';
import type { SharedFields } from './shared-fields';

interface PinSetupFormProps {
  fields: SharedFields;
  description: ReactNode;
  onBack: () => void;
  onPinAlreadySet: () => void;
}

/** 'Create Your PIN': password kept, name prefilled, PIN empty (spec section 4). */
export function PinSetupForm({ fields, description, onBack, onPinAlreadySet }: PinSetupFormProps) {
  const { password, setPassword, name, setName, teamNames } = fields;
  const [pin, setPin] = useState('');
  const pinRef = useRef<HTMLInputElement>(null);
  const setup = useSetupPin({
    onPinAlreadySet,
    onFailure: () => {
      setPin('');
      pinRef.current?.focus();
    },
  });
  const valid = canSubmitPinSetup({ password, name, pin });

  return (
    <SignInCard
      title="Create Your PIN"
      description={description}
      onBack={onBack}
      backDisabled={setup.isPending}
      onSubmit={() => {
        if (valid && !setup.isPending) setup.mutate({ password, name: name.trim(), pin });
      }}
    >
      <FormField id="setup-team-password" label="Team password">
        <Input
          id="setup-team-password"
          name="team-password"
          type="password"
          autoComplete="current-password"
          autoFocus={password === ''}
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
          }}
          onBlur={() => {
            teamNames.request(password);
          }}
        />
      </FormField>
      <NameCombobox id="setup-member-name" label="Name" value={name} onChange={setName} teamNames={teamNames} password={password} />
      <PinField
        id="new-pin"
        label="New PIN"
        hint="Choose 4 digits you will remember. Use the eye button to check what you typed."
        value={pin}
        onChange={setPin}
        autoFocus={password !== ''}
        revealable
        inputRef={pinRef}
      />
      <SubmitButton label="Create PIN and Sign In" pendingLabel="Setting up PIN..." pending={setup.isPending} disabled={!valid} />
    </SignInCard>
  );
}
