import { useLogin, type LoginHandlers } from '../api/login';
import { canSubmitLogin } from '../sign-in-rules';
import { NameCombobox } from './name-combobox';
import { PinField } from './pin-field';
import type { SharedFields } from './shared-fields';
import { LinkButton, SignInCard, SubmitButton } from './sign-in-card';
import { TeamPasswordField } from './team-password-field';
import { usePinEntry } from './use-pin-entry';

interface StandardLoginFormProps {
  fields: SharedFields;
  onPinSetupRequired: LoginHandlers['onPinSetupRequired'];
  onForgotPin: () => void;
}

/** The team login: team password, name with autocomplete, PIN (empty the first time). */
export function StandardLoginForm({ fields, onPinSetupRequired, onForgotPin }: StandardLoginFormProps) {
  const { password, name } = fields;
  const { pin, setPin, pinRef, clearPin } = usePinEntry();
  const login = useLogin({ onPinSetupRequired, onFailure: clearPin });
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
      <TeamPasswordField id="team-password" fields={fields} hint="The shared password your admin gave the team." autoFocus={firstFocus === 'password'} />
      <NameCombobox id="member-name" label="Name" fields={fields} autoFocus={firstFocus === 'name'} />
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
