import type { ReactNode } from 'react';
import { guessablePinReason } from '../../../../common/pin-rules';
import { useSetupPin } from '../api/setup-pin';
import { canSubmitPinSetup } from '../sign-in-rules';
import { NameCombobox } from './name-combobox';
import { PinField } from './pin-field';
import type { SharedFields } from './shared-fields';
import { SignInCard, SubmitButton } from './sign-in-card';
import { TeamPasswordField } from './team-password-field';
import { usePinEntry } from './use-pin-entry';

interface PinSetupFormProps {
  fields: SharedFields;
  description: ReactNode;
  onBack: () => void;
  onPinAlreadySet: () => void;
}

/** 'Create Your PIN': password kept, name prefilled, PIN empty. */
export function PinSetupForm({ fields, description, onBack, onPinAlreadySet }: PinSetupFormProps) {
  const { password, name } = fields;
  const { pin, setPin, pinRef, clearPin } = usePinEntry();
  const setup = useSetupPin({ onPinAlreadySet, onFailure: clearPin });
  // The server refuses guessable PINs with the same reason; saying so here saves a round trip and a lost PIN.
  const refusal = guessablePinReason(pin);
  const valid = canSubmitPinSetup({ password, name, pin }) && refusal === undefined;

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
      <TeamPasswordField id="setup-team-password" fields={fields} autoFocus={password === ''} />
      <NameCombobox id="setup-member-name" label="Name" fields={fields} />
      <PinField
        id="new-pin"
        label="New PIN"
        hint="Choose 4 digits you will remember. Use the eye button to check what you typed."
        error={refusal}
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

interface EnrollmentNeededProps {
  name: string;
  onBack: () => void;
  onRequestLink: () => void;
}

/**
 * 'Create Your PIN' in a browser that opened no enrollment link: only the member the admin sent a
 * link to can create their PIN, so this explains how to get one instead of offering a form that
 * the server would refuse.
 */
export function EnrollmentNeeded({ name, onBack, onRequestLink }: EnrollmentNeededProps) {
  const who = name.trim() === '' ? 'this name' : name.trim();
  return (
    <SignInCard
      title="Create Your PIN"
      description={
        <>
          <p>Signing in as {who} needs a PIN. If you already have one, go Back and enter it.</p>
          <p className="mt-2">
            To create your first PIN, open the enrollment link the admin sent you, in this browser. Each link works once, for 72
            hours. No link, or it expired? Ask the admin for a new one.
          </p>
        </>
      }
      onBack={onBack}
      onSubmit={onRequestLink}
    >
      <SubmitButton label="Ask the Admin for a Link" pendingLabel="" pending={false} disabled={false} />
    </SignInCard>
  );
}
