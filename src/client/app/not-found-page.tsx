import { Compass } from 'lucide-react';
import { Link } from 'wouter';
import { ROUTES } from '../../common/routes';
import { buttonClasses } from '../components/ui/button';

export function NotFoundPage() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="text-center">
        <Compass className="mx-auto h-12 w-12 text-slate-400" aria-hidden="true" />
        <h1 className="mt-4 text-3xl font-bold text-slate-900">Page Not Found</h1>
        <p className="mt-2 text-slate-600">There is nothing at this address. Check the link, or start again from the architecture overview.</p>
        <Link href={ROUTES.home} className={buttonClasses('primary', 'md', 'mt-6')}>
          Back to the overview
        </Link>
      </div>
    </main>
  );
}
