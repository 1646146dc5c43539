import { useForgotPin } from '../api/forgot-pin';
import { canSubmitForgotPin } from '../sign-in-rules';
import { NameCombobox } from './name-combobox';
import { SignInCard, SubmitButton } from './sign-in-card';
import type { SharedFields } from './shared-fields';

/** Why the member asks: a new PIN for a forgotten one, or a first PIN (no enrollment link at hand). */
export type PinRequestPurpose = 'reset' | 'first-pin';

/** The card's title for each purpose; the screen announces it too. */
export const PIN_REQUEST_TITLES: Record<PinRequestPurpose, string> = { reset: 'Reset PIN', 'first-pin': 'Ask for a PIN' };

interface ForgotPinFormProps {
  purpose: PinRequestPurpose;
  fields: SharedFields;
  onBack: () => void;
  onRequested: () => void;
}

/**
 * 'Reset PIN' or 'Ask for a PIN': asks for a name only and files a request the admin resolves
 * with an enrollment link (the same request either way; only the words differ).
 */
export function ForgotPinForm({ purpose, fields, onBack, onRequested }: ForgotPinFormProps) {
  const { name } = fields;
  const forgotPin = useForgotPin({ onRequested });
  const valid = canSubmitForgotPin({ name });

  return (
    <SignInCard
      title={PIN_REQUEST_TITLES[purpose]}
      description={`The admin gets your request and sends you an enrollment link. Open it in this browser to create your ${purpose === 'reset' ? 'new ' : ''}PIN.`}
      onBack={onBack}
      backDisabled={forgotPin.isPending}
      onSubmit={() => {
        if (valid && !forgotPin.isPending) forgotPin.mutate({ memberName: name.trim() });
      }}
    >
      <NameCombobox id="reset-member-name" label="Name" fields={fields} autoFocus noPasswordHint="Your full name, as the admin added you to the team." />
      <SubmitButton label={purpose === 'reset' ? 'Request PIN Reset' : 'Send Request'} pendingLabel="Sending request..." pending={forgotPin.isPending} disabled={!valid} />
    </SignInCard>
  );
}
