import { createFileRoute } from '@tanstack/react-router';
import { HarvestForecastPage } from '../../features/contracts/collection/HarvestForecastPage.js';
import { guardRoute } from './-guard.js';

/** 'Prévisions de récolte': expected tonnes per week and buying centre (aggregator). */
export const Route = createFileRoute('/_app/previsions-de-recolte')({
  beforeLoad: ({ context }) => guardRoute('harvestForecast', context.user),
  component: HarvestForecastPage,
});
