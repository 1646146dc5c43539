import { useForgotPin } from '../api/forgot-pin';
import { canSubmitForgotPin } from '../sign-in-rules';
import { NameCombobox } from './name-combobox';
import { SignInCard, SubmitButton } from './sign-in-card';
import type { SharedFields } from './shared-fields';

interface ForgotPinFormProps {
  fields: SharedFields;
  onBack: () => void;
  onRequested: () => void;
}

/** 'Reset PIN': asks for a name only and files a request the admin resolves. */
export function ForgotPinForm({ fields, onBack, onRequested }: ForgotPinFormProps) {
  const { name } = fields;
  const forgotPin = useForgotPin({ onRequested });
  const valid = canSubmitForgotPin({ name });

  return (
    <SignInCard
      title="Reset PIN"
      description="The admin gets your request and sends you an enrollment link. Open it in this browser to create your new PIN."
      onBack={onBack}
      backDisabled={forgotPin.isPending}
      onSubmit={() => {
        if (valid && !forgotPin.isPending) forgotPin.mutate({ memberName: name.trim() });
      }}
    >
      <NameCombobox id="reset-member-name" label="Name" fields={fields} autoFocus noPasswordHint="Your full name, as the admin added you to the team." />
      <SubmitButton label="Request PIN Reset" pendingLabel="Sending request..." pending={forgotPin.isPending} disabled={!valid} />
    </SignInCard>
  );
}
