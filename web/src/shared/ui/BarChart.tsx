import { Center, Text } from '@mantine/core';
import type { BarDatum, ResponsiveBarSvgProps } from '@nivo/bar';
import { Component, lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * nivo's bar chart, its code (the `charts` chunk, vite.config.ts HEAVY_CHUNKS) loaded once a
 * screen draws one: the screen's figures are shown without waiting for it, the bars come after.
 * Its code unavailable (offline before any chart was drawn: the service worker does not
 * precache it), the chart says so and the rest of the screen works.
 */
const ResponsiveBar = lazy(() =>
  import('@nivo/bar').then((nivo) => ({ default: nivo.ResponsiveBar })),
) as unknown as <D extends BarDatum>(props: ResponsiveBarSvgProps<D>) => ReactElement;

export function BarChart<D extends BarDatum>(props: ResponsiveBarSvgProps<D>) {
  return (
    <ChartBoundary>
      <Suspense fallback={null}>
        <ResponsiveBar {...props} />
      </Suspense>
    </ChartBoundary>
  );
}

class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ChartUnavailable /> : this.props.children;
  }
}

function ChartUnavailable() {
  const { t } = useTranslation('charts');
  return (
    <Center h="100%" data-testid="chart-unavailable">
      <Text size="sm" c="dark.4" ta="center">
        {t('unavailable')}
      </Text>
    </Center>
  );
}
