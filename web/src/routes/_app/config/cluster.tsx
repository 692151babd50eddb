import { createFileRoute } from '@tanstack/react-router';
import { ClusterConfigPage } from '../../../features/actors/clusters/components/ClusterConfigPage.js';
import { guardRoute } from '../-guard.js';

/** 'Configurer mon cluster' for the cluster manager. */
export const Route = createFileRoute('/_app/config/cluster')({
  beforeLoad: ({ context }) => guardRoute('clusterConfig', context.user),
  component: ClusterConfigPage,
});
