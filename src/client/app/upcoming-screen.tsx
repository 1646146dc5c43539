import { Construction } from 'lucide-react';
import { NAV } from '../components/layout/navigation';
import { PageHeader } from '../components/layout/page-header';
import { Card } from '../components/ui/card';

/** Screens whose features land in later releases keep their route and header already. */
export default function UpcomingScreen({ title }: { title: string }) {
  return (
    <div className="min-h-screen">
      <PageHeader
        title={title}
        subtitle="AI-Driven Operations Management"
        links={[NAV.home, NAV.principles, NAV.analytics, NAV.suggestions, NAV.admin]}
      />
      <main className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <Card className="p-8 text-center">
          <Construction className="mx-auto h-10 w-10 text-amber-500" aria-hidden="true" />
          <h2 className="mt-4 text-xl font-semibold">{title} is not open yet</h2>
          <p className="mt-2 text-slate-600">This part of the review comes in a later release.</p>
        </Card>
      </main>
    </div>
  );
}
