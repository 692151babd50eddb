import { Center, Text } from '@mantine/core';
import type { BarDatum, ResponsiveBarSvgProps } from '@nivo/bar';
import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useAfterPaint } from './use-after-paint.js';

type ResponsiveBar = <D extends BarDatum>(props: ResponsiveBarSvgProps<D>) => ReactElement;

/** nivo's bar chart, its code (the `charts` chunk) fetched once, by the first chart drawn. */
let bar: Promise<ResponsiveBar> | undefined;
function loadBar(): Promise<ResponsiveBar> {
  bar ??= import('@nivo/bar').then(
    (nivo) => nivo.ResponsiveBar,
    (error: unknown) => {
      // Asked again by the next chart drawn (the network may be back).
      bar = undefined;
      throw error;
    },
  );
  return bar;
}

/**
 * nivo's bar chart, its code (the `charts` chunk, vite.config.ts HEAVY_CHUNKS) loaded once a
 * screen draws one: the screen's figures are shown without waiting for it, the bars come after.
 * Asked for once the screen with the chart has been painted, so neither a render of the screen
 * nor its first frame waits for it. Its code unavailable (offline before any chart was drawn:
 * the service worker does not precache it), the chart says so and the rest of the screen works.
 */
export function BarChart<D extends BarDatum>(props: ResponsiveBarSvgProps<D>) {
  const [loaded, setLoaded] = useState<{ Bar: ResponsiveBar } | 'failed' | null>(null);
  // The chart's code and first render (a few hundred milliseconds of a phone's CPU) would
  // otherwise hold back the frame that shows the screen's figures.
  const painted = useAfterPaint();
  useEffect(() => {
    if (!painted) return;
    let live = true;
    loadBar().then(
      (Bar) => live && setLoaded({ Bar }),
      () => live && setLoaded('failed'),
    );
    return () => {
      live = false;
    };
  }, [painted]);
  if (loaded === 'failed') return <ChartUnavailable />;
  return loaded ? <loaded.Bar {...props} /> : null;
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
