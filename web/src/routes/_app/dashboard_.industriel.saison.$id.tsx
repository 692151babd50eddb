import { createFileRoute } from '@tanstack/react-router';
import { IndustrialSeasonPage } from '../../features/seasons/industrial/index.js';
import { NotFound } from '../../shared/ui/NotFound.js';
import { guardRoute } from './-guard.js';

/** dashboard/industriel/saison/{id} (showCampagne): the industrial's season and its tabs. */
export const Route = createFileRoute('/_app/dashboard_/industriel/saison/$id')({
  beforeLoad: ({ context }) => guardRoute('industrialSeasons', context.user),
  component: function IndustrialSeason() {
    const { id } = Route.useParams();
    const seasonId = Number(id);
    if (!Number.isInteger(seasonId) || seasonId < 1) return <NotFound />;
    return <IndustrialSeasonPage seasonId={seasonId} />;
  },
});
