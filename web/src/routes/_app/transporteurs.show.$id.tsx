import { createFileRoute } from '@tanstack/react-router';
import { CarrierDetailPage } from '../../features/actors/carriers/components/CarrierDetailPage.js';
import { guardRoute } from './-guard.js';

/** transporteurs/show/{id}: the carrier's Profil and Contrats tabs. */
export const Route = createFileRoute('/_app/transporteurs/show/$id')({
  beforeLoad: ({ context }) => guardRoute('carriers', context.user),
  component: function ShowCarrier() {
    const { id } = Route.useParams();
    return <CarrierDetailPage id={id} />;
  },
});
