import { initialsOf } from '../../../../common/names';
import { useForceLogout } from '../api/force-logout';
import { useQuickLogin } from '../api/quick-login';
import { canSubmitQuickLogin } from '../sign-in-rules';
import { PinField } from './pin-field';
import { LinkButton, SignInCard, SubmitButton } from './sign-in-card';
import { usePinEntry } from './use-pin-entry';

interface QuickLoginFormProps {
  memberName: string;
  onBack: () => void;
  onPinSetupRequired: (name: string) => void;
  onForgotPin: () => void;
}

/** 'Welcome Back': this device remembers the member, so only the PIN is asked. */
export function QuickLoginForm({ memberName, onBack, onPinSetupRequired, onForgotPin }: QuickLoginFormProps) {
  const { pin, setPin, pinRef, clearPin } = usePinEntry();
  const quickLogin = useQuickLogin({ onPinSetupRequired, onFailure: clearPin });
  const forceLogout = useForceLogout();
  const busy = quickLogin.isPending || forceLogout.isPending;
  const valid = canSubmitQuickLogin({ name: memberName, pin });

  return (
    <SignInCard
      title="Welcome Back"
      description="This device remembers you. Enter your PIN to continue."
      onBack={onBack}
      backDisabled={busy}
      onSubmit={() => {
        if (valid && !busy) quickLogin.mutate({ name: memberName, pin });
      }}
      footer={
        <>
          <LinkButton
            onClick={() => {
              forceLogout.mutate();
            }}
            disabled={busy}
          >
            {forceLogout.isPending ? 'Switching account...' : 'Use Different Account'}
          </LinkButton>
          <LinkButton onClick={onForgotPin} disabled={busy}>
            Forgot your PIN?
          </LinkButton>
        </>
      }
    >
      <div className="flex items-center gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
        <span
          className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700"
          aria-hidden="true"
        >
          {initialsOf(memberName)}
        </span>
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">Signing in as</p>
          <p className="truncate font-semibold text-slate-900">{memberName}</p>
        </div>
      </div>
      <PinField id="quick-pin" label="PIN" hint="Your 4-digit PIN." value={pin} onChange={setPin} autoFocus inputRef={pinRef} />
      <SubmitButton label="Sign In" pendingLabel="Signing in..." pending={quickLogin.isPending} disabled={!valid} />
    </SignInCard>
  );
}
