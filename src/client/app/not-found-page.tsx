import { Compass } from 'lucide-react';
import { Link } from 'wouter';
import { ROUTES } from '../../common/routes';
import { PageHeader } from '../components/layout/page-header';
import { buttonClasses } from '../components/ui/button';

/** Inside the sign-in gate: a wrong address keeps the header, so every other page is one click away. */
export function NotFoundPage() {
  return (
    <div className="flex min-h-screen flex-col">
      <PageHeader title="AI-Driven Operations Management" subtitle="Architecture Review" />
      <main className="flex flex-1 items-center justify-center p-6">
        <div className="text-center">
          <Compass className="mx-auto h-12 w-12 text-slate-400" aria-hidden="true" />
          <h2 className="mt-4 text-3xl font-bold text-slate-900">Page Not Found</h2>
          <p className="mt-2 text-slate-600">There is nothing at this address. Check the link, or start again from the architecture overview.</p>
          <Link href={ROUTES.home} className={buttonClasses('primary', 'md', 'mt-6')}>
            Back to the overview
          </Link>
        </div>
      </main>
    </div>
  );
}
