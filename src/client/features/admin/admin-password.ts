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
