import { createFileRoute } from '@tanstack/react-router';
import { CooperativeDetailPage } from '../../features/actors/cooperatives/components/CooperativeDetailPage.js';
import { guardRoute } from './-guard.js';

/** ops/show/{id}: a cooperative, its representative and its payout accounts. */
export const Route = createFileRoute('/_app/organisations-paysannes/show/$id')({
  beforeLoad: ({ context }) => guardRoute('cooperatives', context.user),
  component: function ShowCooperative() {
    const { id } = Route.useParams();
    return <CooperativeDetailPage id={id} />;
  },
});
