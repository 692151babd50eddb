import { createFileRoute } from '@tanstack/react-router';
import { CollectionCentrePage } from '../../features/contracts/collection/CollectionCentrePage.js';
import { guardRoute } from './-guard.js';

/** 'Centre de collecte': weigh and pay a grower's contract at the scale (aggregator). */
export const Route = createFileRoute('/_app/centre-de-collecte')({
  beforeLoad: ({ context }) => guardRoute('collectionCentre', context.user),
  component: CollectionCentrePage,
});
