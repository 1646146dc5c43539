import { useState, type ReactNode } from 'react';
import { ASSISTANT_NAME } from '../../../common/product';
import { ImageWithFallback } from '../../components/image-with-fallback';
import { useCheckSession } from './api/check-session';
import { useEnrollmentStatus } from './api/enrollment-status';
import { useTeamMemberNames } from './api/team-member-names';
import { ForgotPinForm, PIN_REQUEST_TITLES, type PinRequestPurpose } from './components/forgot-pin-form';
import { EnrollmentNeeded, PinSetupForm } from './components/pin-setup-form';
import { QuickLoginForm } from './components/quick-login-form';
import type { SharedFields } from './components/shared-fields';
import { StandardLoginForm } from './components/standard-login-form';
import { SignInMarketing } from './sign-in-marketing';

/** The sign-in screen's modes: which card it shows. */
type Mode = { kind: 'standard' } | { kind: 'quick' } | { kind: 'setup'; description: ReactNode } | { kind: 'forgot'; purpose: PinRequestPurpose };

const TITLES: Record<Exclude<Mode['kind'], 'forgot'>, string> = {
  standard: 'Team Sign In',
  quick: 'Welcome Back',
  setup: 'Create Your PIN',
};

const titleOf = (mode: Mode): string => (mode.kind === 'forgot' ? PIN_REQUEST_TITLES[mode.purpose] : TITLES[mode.kind]);

/** A wait in words, as the server words it: seconds up to a minute and a half, then minutes. */
function waitPhrase(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * The sign-in screen: the form beside the marketing text on wide screens, the form
 * first on phones. A browser that opened an enrollment link starts on 'Create Your PIN' for that
 * member; a remembered device on 'Welcome Back'; anyone else on the team login.
 */
export default function SignInScreen() {
  const session = useCheckSession();
  const enrollment = useEnrollmentStatus();
  const teamNames = useTeamMemberNames();
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<{ mode: Mode; version: number } | null>(null);

  const rememberedName = session.data?.canQuickLogin === true ? session.data.memberName : null;
  const enrolledName = enrollment.data?.state === 'valid' ? enrollment.data.memberName : null;
  // The link's member is known once: start on their PIN setup with the name filled in.
  const [startedEnrollment, setStartedEnrollment] = useState(false);
  if (enrolledName !== null && !startedEnrollment) {
    setStartedEnrollment(true);
    setName(enrolledName);
    setChosen({ mode: { kind: 'setup', description: `Welcome, ${enrolledName}! Enter the team password and choose the 4-digit PIN you will sign in with.` }, version: 1 });
  }
  const checking = session.isPending || enrollment.isPending;
  const mode: Mode | null = chosen?.mode ?? (checking ? null : rememberedName !== null ? { kind: 'quick' } : { kind: 'standard' });

  // Every switch remounts the variant: its PIN starts empty and its first field takes focus.
  const go = (next: Mode) => {
    setChosen((previous) => ({ mode: next, version: (previous?.version ?? 0) + 1 }));
  };
  const back = () => {
    go({ kind: 'standard' });
  };
  const openPinSetup = (forName: string, description: ReactNode) => {
    setName(forName);
    go({ kind: 'setup', description });
  };
  const fields: SharedFields = { password, setPassword, name, setName, teamNames };

  let card: ReactNode;
  if (mode === null) {
    card = (
      <div role="status" className="flex items-center justify-center gap-3 rounded-2xl bg-white p-10 text-slate-700 shadow-xl ring-1 ring-slate-200">
        <span className="h-5 w-5 animate-spin rounded-full border-2 border-slate-200 border-t-brand-600" aria-hidden="true" />
        Checking this device...
      </div>
    );
  } else if (mode.kind === 'quick' && rememberedName !== null) {
    card = (
      <QuickLoginForm
        memberName={rememberedName}
        onBack={back}
        onPinSetupRequired={(forName) => {
          openPinSetup(forName, `${forName} has no PIN yet. Enter the team password and choose a 4-digit PIN.`);
        }}
        onForgotPin={() => {
          setName(rememberedName);
          go({ kind: 'forgot', purpose: 'reset' });
        }}
      />
    );
  } else if (mode.kind === 'setup') {
    card =
      enrolledName === null ? (
        <EnrollmentNeeded
          name={name}
          onBack={back}
          onRequestLink={() => {
            go({ kind: 'forgot', purpose: 'first-pin' });
          }}
        />
      ) : (
        <PinSetupForm fields={fields} description={mode.description} onBack={back} onPinAlreadySet={back} />
      );
  } else if (mode.kind === 'forgot') {
    card = <ForgotPinForm purpose={mode.purpose} fields={fields} onBack={back} onRequested={back} />;
  } else {
    card = (
      <StandardLoginForm
        fields={fields}
        onPinSetupRequired={(forName, reason, message) => {
          openPinSetup(
            forName,
            reason === 'no-pin-yet' ? (
              <>
                <p>{message ?? 'Create your 4-digit PIN to finish signing in'}</p>
                <p className="mt-1">You will use it with the team password every time you sign in.</p>
              </>
            ) : (
              `Signing in as ${forName} needs a PIN. If you already have one, go Back and enter it; otherwise choose one now.`
            ),
          );
        }}
        onForgotPin={() => {
          go({ kind: 'forgot', purpose: 'reset' });
        }}
      />
    );
  }

  return (
    <div className="min-h-screen lg:grid lg:grid-cols-2">
      <main className="flex flex-col items-center justify-center bg-slate-50 px-4 py-8 sm:px-6 lg:order-2 lg:py-12">
        <div className="w-full max-w-md">
          <div className="mb-6 flex items-center gap-3 lg:hidden">
            <ImageWithFallback src="/biggy-logo.svg" alt={`${ASSISTANT_NAME} logo`} className="h-10 w-10 rounded-lg" fallbackEmoji="🤖" />
            <div>
              <p className="font-semibold text-slate-900">{ASSISTANT_NAME} Architecture Review</p>
              <p className="text-sm text-slate-600">AI-Driven Operations Management</p>
            </div>
          </div>
          {enrollment.data?.state === 'invalid' && (
            <p role="alert" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
              This enrollment link no longer works: it was used already, replaced by a newer one, or is more than 72 hours old. Ask
              the admin to send you a new one.
            </p>
          )}
          {enrollment.data?.state === 'rate-limited' && (
            <p role="alert" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
              Too many sign-in attempts from this address. Your enrollment link is kept: try again in{' '}
              {waitPhrase(enrollment.data.retryAfterSeconds)}, and this page checks it again by itself then.
            </p>
          )}
          <div key={chosen?.version ?? 0}>{card}</div>
          {/* Focus moves to a field of the new variant; this tells screen readers which variant it is. */}
          <p className="sr-only" aria-live="polite">
            {chosen !== null && `${titleOf(chosen.mode)} form`}
          </p>
          <p className="mt-6 text-center text-sm text-slate-600">Access is limited to pre-approved team members.</p>
        </div>
      </main>
      <aside aria-label={`About ${ASSISTANT_NAME}`} className="bg-linear-to-br from-brand-900 to-brand-700 lg:order-1">
        <SignInMarketing />
      </aside>
    </div>
  );
}
