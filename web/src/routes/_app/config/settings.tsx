import { createFileRoute } from '@tanstack/react-router';
import { ClusterConfigPage } from '../../../features/actors/clusters/components/ClusterConfigPage.js';
import { guardRoute } from '../-guard.js';

/** The SFD's settings: the same 'Configurer mon cluster' screen. */
export const Route = createFileRoute('/_app/config/settings')({
  beforeLoad: ({ context }) => guardRoute('clusterSettings', context.user),
  component: ClusterConfigPage,
});
