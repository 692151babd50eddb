import { createFileRoute } from '@tanstack/react-router';
import { AdvanceDetailPage } from '../../features/contracts/advances/components/AdvanceDetailPage.js';
import { recoveriesSearch } from '../../features/contracts/advances/model/search.js';
import { canAccess } from '../../shared/navigation/menu.js';
import { routeByKey } from '../../shared/navigation/routes.js';
import { HOME_PATH } from '../../shared/auth/redirect.js';
import { redirect } from '@tanstack/react-router';
import { useSearchChange } from '../../shared/search/use-search-change.js';

/** An input advance or a social financing and the delivery contracts that recovered it. */
export const Route = createFileRoute('/_app/contrats/avances/$id')({
  validateSearch: recoveriesSearch,
  beforeLoad: ({ context }) => {
    const role = context.user.role?.code ?? '';
    if (
      !['inputAdvanceContracts', 'socialFinancingContracts'].some((key) =>
        canAccess(routeByKey(key), role),
      )
    )
      throw redirect({ href: HOME_PATH });
  },
  component: function Advance() {
    const { id } = Route.useParams();
    const search = Route.useSearch();
    const onSearchChange = useSearchChange<{ page?: number }>();
    return (
      <AdvanceDetailPage
        advanceId={id}
        page={search.page ?? 1}
        onPageChange={(page) => onSearchChange({ page })}
      />
    );
  },
});
