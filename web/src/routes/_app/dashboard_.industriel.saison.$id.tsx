import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { IndustrialSeasonPage, SEASON_TABS } from '../../features/seasons/industrial/index.js';
import { enumParam } from '../../shared/search/list-search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { NotFoundInLayout } from '../../shared/ui/NotFound.js';
import { guardRoute } from './-guard.js';

/**
 * dashboard/industriel/saison/{id} (showCampagne): the industrial's season and its tabs, the
 * tab in the URL (`?tab=requests`) so a way back lands on it.
 */
export const Route = createFileRoute('/_app/dashboard_/industriel/saison/$id')({
  validateSearch: z.object({ tab: enumParam(SEASON_TABS) }),
  beforeLoad: ({ context }) => guardRoute('industrialSeasons', context.user),
  component: function IndustrialSeason() {
    const { id } = Route.useParams();
    const { tab } = Route.useSearch();
    const onSearchChange = useSearchChange<{ tab?: string }>();
    const seasonId = Number(id);
    if (!Number.isInteger(seasonId) || seasonId < 1) return <NotFoundInLayout />;
    return (
      <IndustrialSeasonPage
        seasonId={seasonId}
        tab={tab ?? 'details'}
        onTabChange={(next) => onSearchChange({ tab: next === 'details' ? undefined : next })}
      />
    );
  },
});
