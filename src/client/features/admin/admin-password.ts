import { toast } from '../../components/ui/use-toast';

/** Whether a field holds something other than blanks. */
export function isFilled(value: string): boolean {
  return value.trim() !== '';
}

/**
 * Every state-changing admin call carries the admin password typed once at the top of Team
 * Management. Without it the call could only be refused, so the action says so instead of calling.
 */
export function requireAdminPassword(adminPassword: string): boolean {
  if (isFilled(adminPassword)) return true;
  toast({ title: 'Admin Password Required', description: 'Please enter the admin password above', variant: 'destructive' });
  return false;
}

/**
 * The first two characters and a fixed row of asterisks: enough to recognise which password is
 * typed, without showing it or its length. Array.from keeps a character of two code units whole.
 */
export function maskPassword(password: string): string {
  return `${Array.from(password).slice(0, 2).join('')}******`;
}
