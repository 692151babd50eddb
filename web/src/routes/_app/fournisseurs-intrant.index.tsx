import { createFileRoute } from '@tanstack/react-router';
import { SUPPLIER_STATUSES } from '../../features/actors/suppliers/api/suppliers.js';
import { SuppliersPage } from '../../features/actors/suppliers/components/SuppliersPage.js';
import { enumParam, listSearch } from '../../shared/search/list-search.js';
import { guardRoute } from './-guard.js';

/** fournisseursIntrant: the suppliers list, its search, page and (super admin) status in the URL. */
export const Route = createFileRoute('/_app/fournisseurs-intrant/')({
  validateSearch: listSearch({
    status: enumParam(SUPPLIER_STATUSES as ['active', 'inactive']),
  }),
  beforeLoad: ({ context }) => guardRoute('inputProviders', context.user),
  component: function Suppliers() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <SuppliersPage
        search={search}
        onSearchChange={(next) =>
          navigate({ search: (prev) => ({ ...prev, ...next }), replace: true })
        }
      />
    );
  },
});
