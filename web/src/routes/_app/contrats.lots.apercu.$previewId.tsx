import { createFileRoute } from '@tanstack/react-router';
import { PreviewPage } from '../../features/contracts/batches/components/PreviewPage.js';
import { previewSearch } from '../../features/contracts/batches/model/search.js';
import { useSearchChange } from '../../shared/search/use-search-change.js';
import { guardRoute } from './-guard.js';

/** showUploadProducteurs: the checked rows before 'Valider' (its page in the URL). */
export const Route = createFileRoute('/_app/contrats/lots/apercu/$previewId')({
  validateSearch: previewSearch,
  beforeLoad: ({ context }) => guardRoute('contractBatchCreate', context.user),
  component: function ContractBatchPreview() {
    const { previewId } = Route.useParams();
    const search = Route.useSearch();
    const onSearchChange = useSearchChange<{ page?: number }>();
    return (
      <PreviewPage
        previewId={previewId}
        page={search.page ?? 1}
        onPageChange={(page) => onSearchChange({ page })}
      />
    );
  },
});
