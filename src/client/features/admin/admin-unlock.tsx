import clsx from 'clsx';
import { Lock, LockOpen } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ERROR_CODES } from '../../../common/api/error-codes';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { ApiRequestError } from '../../lib/api-client';
import { formatTimeOfDay } from '../../lib/relative-time';
import { useEscapeCloses } from '../../lib/use-escape-closes';
import { useReturnFocus } from './return-focus';

/** How long one unlock lasts: long enough for a round of changes, short enough for a tab left open. */
export const UNLOCK_MS = 15 * 60_000;

/** Why the actions are locked again, said beside the control until the next unlock. */
type LockReason = 'wrong-password' | 'throttled' | 'expired';

const LOCKED_TEXT: Record<LockReason | 'locked', string> = {
  locked: 'Admin actions are locked. Unlock them once with the admin password; this tab keeps it in memory for 15 minutes.',
  'wrong-password': 'The admin password was wrong, so admin actions are locked again. Unlock them with the right password.',
  throttled: 'Too many wrong admin passwords: admin actions are locked. Wait a few minutes, then unlock them with the right password.',
  expired: 'Admin actions locked again after 15 minutes. Unlock them to go on.',
};

interface AdminUnlock {
  /** When the unlock ends (epoch ms), or null while the actions are locked. */
  unlockedUntil: number | null;
  lockReason: LockReason | null;
  /** Runs `act` with the admin password now, or asks for the password first and then runs it. */
  withPassword: (act: (password: string) => void) => void;
  /** Opens the password dialog. */
  unlock: () => void;
  lock: () => void;
  /**
   * For an admin call's error: when the server refused the password (wrong, or too many wrong
   * ones), locks the actions again, says so and answers true; otherwise answers false.
   */
  passwordRefused: (error: unknown) => boolean;
}

const AdminUnlockContext = createContext<AdminUnlock | null>(null);

export function useAdminUnlock(): AdminUnlock {
  const unlock = useContext(AdminUnlockContext);
  if (unlock === null) throw new Error('useAdminUnlock outside AdminUnlockProvider');
  return unlock;
}

/**
 * The admin password, asked once for all of the panel's actions and held in this component's state
 * only: never in web storage, gone with the page, and dropped after UNLOCK_MS. The server still
 * checks it on every call; its refusal locks the actions again.
 */
export function AdminUnlockProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<{ password: string; until: number } | null>(null);
  const [lockReason, setLockReason] = useState<LockReason | null>(null);
  const [asking, setAsking] = useState(false);
  // The action that asked for the password, run once the dialog has closed and given focus back.
  const pendingAction = useRef<((password: string) => void) | null>(null);
  const unlockedWith = useRef<string | null>(null);

  useEffect(() => {
    if (session === null) return undefined;
    const timer = setTimeout(
      () => {
        setSession(null);
        setLockReason('expired');
      },
      Math.max(0, session.until - Date.now()),
    );
    return () => {
      clearTimeout(timer);
    };
  }, [session]);

  const lockFor = (reason: LockReason | null) => {
    setSession(null);
    setLockReason(reason);
  };
  const ask = (act: ((password: string) => void) | null) => {
    pendingAction.current = act;
    unlockedWith.current = null;
    setAsking(true);
  };

  const value: AdminUnlock = {
    unlockedUntil: session?.until ?? null,
    lockReason,
    withPassword: (act) => {
      // A timer in a background tab may run late: the clock decides.
      if (session !== null && session.until > Date.now()) {
        act(session.password);
        return;
      }
      if (session !== null) lockFor('expired');
      ask(act);
    },
    unlock: () => {
      ask(null);
    },
    lock: () => {
      lockFor(null);
    },
    passwordRefused: (error) => {
      if (!(error instanceof ApiRequestError)) return false;
      if (error.hasCode(ERROR_CODES.invalidAdminPassword)) {
        lockFor('wrong-password');
        toast({ title: 'Wrong admin password', description: 'Admin actions are locked again. Unlock them with the right password.', variant: 'destructive' });
        return true;
      }
      if (error.hasCode(ERROR_CODES.adminPasswordThrottled)) {
        lockFor('throttled');
        toast({ title: 'Too many wrong admin passwords', description: 'Admin actions are locked. Wait a few minutes, then unlock them again.', variant: 'destructive' });
        return true;
      }
      return false;
    },
  };

  return (
    <AdminUnlockContext.Provider value={value}>
      {children}
      <UnlockDialog
        open={asking}
        onCancel={() => {
          setAsking(false);
        }}
        onUnlock={(password) => {
          setSession({ password, until: Date.now() + UNLOCK_MS });
          setLockReason(null);
          unlockedWith.current = password;
          setAsking(false);
        }}
        afterClose={() => {
          const act = pendingAction.current;
          const password = unlockedWith.current;
          pendingAction.current = null;
          unlockedWith.current = null;
          if (act !== null && password !== null) act(password);
        }}
      />
    </AdminUnlockContext.Provider>
  );
}

function UnlockDialog({ open, onCancel, onUnlock, afterClose }: { open: boolean; onCancel: () => void; onUnlock: (password: string) => void; afterClose: () => void }) {
  const fieldId = useId();
  const problemId = useId();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const close = (nextOpen: boolean) => {
    if (nextOpen) return;
    setPassword('');
    setProblem(null);
    onCancel();
  };
  useEscapeCloses(open, close);
  const returnFocus = useReturnFocus(afterClose);
  return (
    <Dialog.Root open={open} onOpenChange={close}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          {...returnFocus}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-1.5rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 bg-white p-6 shadow-2xl outline-none"
        >
          <Dialog.Title className="text-lg font-semibold text-slate-900">Unlock admin actions</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-700">
            The admin password unlocks every admin action in this tab for 15 minutes. It is kept in memory only, never stored, and the server checks it on
            each action: a wrong one locks the actions again.
          </Dialog.Description>
          <form
            noValidate
            className="mt-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (password === '') {
                setProblem('Enter the admin password.');
                return;
              }
              setPassword('');
              setProblem(null);
              onUnlock(password);
            }}
          >
            <label htmlFor={fieldId} className="block text-sm font-medium text-slate-900">
              Admin password
            </label>
            <Input
              id={fieldId}
              type="password"
              autoComplete="off"
              value={password}
              aria-invalid={problem !== null}
              aria-describedby={problem === null ? undefined : problemId}
              className="mt-1"
              onChange={(event) => {
                setPassword(event.target.value);
              }}
            />
            {problem !== null && (
              <p id={problemId} role="alert" className="mt-2 text-sm font-medium text-red-800">
                {problem}
              </p>
            )}
            <div className="mt-6 flex justify-end gap-2">
              <Dialog.Close asChild>
                <Button variant="outline">Cancel</Button>
              </Dialog.Close>
              <Button type="submit">Unlock</Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The panel's one control for the admin password: whether actions are unlocked, until when, and the button to unlock or lock them. */
export function AdminUnlockBar() {
  const { unlockedUntil, lockReason, unlock, lock } = useAdminUnlock();
  const unlocked = unlockedUntil !== null;
  const Icon = unlocked ? LockOpen : Lock;
  const warning = !unlocked && (lockReason === 'wrong-password' || lockReason === 'throttled');
  return (
    <section
      aria-label="Admin actions"
      className={clsx(
        'mt-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-3',
        unlocked ? 'border-emerald-300 bg-emerald-50' : warning ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-white',
      )}
    >
      {/* The sentence keeps a readable width; on a phone the button goes below it. */}
      <div className="flex min-w-0 grow basis-72 items-start gap-2">
        <Icon className={clsx('mt-0.5 h-5 w-5 shrink-0', unlocked ? 'text-emerald-700' : warning ? 'text-red-700' : 'text-slate-600')} aria-hidden="true" />
        <p role="status" className={clsx('text-sm', unlocked ? 'text-emerald-900' : warning ? 'font-medium text-red-800' : 'text-slate-700')}>
          {unlocked ? (
            <>
              <strong className="font-semibold">Admin actions are unlocked</strong> until <time dateTime={new Date(unlockedUntil).toISOString()}>{formatTimeOfDay(unlockedUntil)}</time>, in
              this tab only.
            </>
          ) : (
            LOCKED_TEXT[lockReason ?? 'locked']
          )}
        </p>
      </div>
      {/* One button for both states, so focus stays on it when the state changes. */}
      <Button variant={unlocked ? 'outline' : 'primary'} size="sm" className="shrink-0" onClick={unlocked ? lock : unlock}>
        {unlocked ? 'Lock admin actions' : 'Unlock admin actions'}
      </Button>
    </section>
  );
}
