import { createFileRoute } from '@tanstack/react-router';
import { SeasonDetailPage } from '../../features/seasons/admin/SeasonDetailPage.js';
import { guardRoute } from './-guard.js';

/** The admin season detail (spec §2.7): super admin (manages) and cluster manager (reads). */
export const Route = createFileRoute('/_app/saisons/show/$id')({
  beforeLoad: ({ context }) => guardRoute('seasons', context.user),
  component: function ShowSeason() {
    const { id } = Route.useParams();
    return <SeasonDetailPage seasonId={Number(id)} />;
  },
});
