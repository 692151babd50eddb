import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { Box } from '@mantine/core';
import {
  Map as MapLibreMap,
  Marker,
  NavigationControl,
  setWorkerUrl,
  type GeoJSONSource,
  type StyleSpecification,
} from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapSettings } from '../api/sites.js';
import { roundPoint, type Point } from '@filiere/api/sites/geometry';
import { labelKindAt, labelsOf, loadBeninPlaces } from '../model/benin-labels.js';
import { offlineStyle, remoteStyle, type StyleKind } from '../model/map-style.js';

setWorkerUrl(workerUrl);

/** How long the configured tiles may take to draw before the bundled map replaces them. */
const REMOTE_WAIT_MS = 8000;

export interface SiteMapProps {
  settings: MapSettings;
  /** The place's marker (draggable), or none. */
  marker?: Point | null;
  /** A coverage zone's points, drawn as a polygon with its vertices. */
  polygon?: readonly Point[];
  /** Where to look: the map moves there when it changes (a chosen suggestion). */
  focus?: Point | null;
  /** A click on the map, or the marker dropped after a drag (rounded to 7 decimals). */
  onPick: (point: Point) => void;
  height?: number | string;
}

/** A name of the offline map: HTML over the canvas (MapLibre's text layers need glyph files). */
const labelElement = (kind: 'department' | 'commune', name: string): HTMLElement => {
  const element = document.createElement('div');
  element.textContent = name;
  element.dataset.kind = kind;
  element.dataset.testid = 'map-label';
  Object.assign(element.style, {
    pointerEvents: 'none',
    whiteSpace: 'nowrap',
    font:
      kind === 'department'
        ? '700 13px/1.2 system-ui, sans-serif'
        : '600 11px/1.2 system-ui, sans-serif',
    letterSpacing: kind === 'department' ? '0.08em' : '0.02em',
    color: kind === 'department' ? '#5c3b00' : '#1f2f1f',
    textShadow: '0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff',
  });
  return element;
};

const zoneData = (points: readonly Point[]): GeoJSON.FeatureCollection => {
  const ring = points.map((p) => [p.longitude, p.latitude]);
  const features: GeoJSON.Feature[] = points.map((p, i) => ({
    type: 'Feature',
    properties: { index: i + 1 },
    geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] },
  }));
  if (ring.length >= 3) {
    features.unshift({
      type: 'Feature',
      properties: {},
      geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] },
    });
  } else if (ring.length === 2) {
    features.unshift({
      type: 'Feature',
      properties: {},
      geometry: { type: 'LineString', coordinates: ring },
    });
  }
  return { type: 'FeatureCollection', features };
};

/**
 * The sites' map (MapLibre): MAP_STYLE_URL's tiles, or — configured 'offline', or when they
 * fail to load or take too long — the bundled country outlines, so the map works with no
 * internet, with the names of Benin's departments (below zoom 9) or communes (from it). A
 * click picks a point; the marker can be dragged; a zone's polygon is drawn.
 * `data-style` says which style is drawn ('remote' or 'offline'), `data-loaded` which one has
 * finished loading.
 */
export function SiteMap({ settings, marker, polygon, focus, onPick, height = 420 }: SiteMapProps) {
  const { t } = useTranslation('places');
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const pin = useRef<Marker | null>(null);
  const pick = useRef(onPick);
  const zone = useRef<readonly Point[]>(polygon ?? []);
  useEffect(() => {
    pick.current = onPick;
    zone.current = polygon ?? [];
  });
  const draw = useRef<(() => void) | null>(null);
  const [kind, setKind] = useState<StyleKind>(() =>
    remoteStyle(settings.styleUrl) === null ? 'offline' : 'remote',
  );
  /** Which style has finished loading (the bundled one replaces the remote one on failure). */
  const [loaded, setLoaded] = useState<StyleKind | null>(null);
  const ready = loaded !== null;

  useEffect(() => {
    const start = marker ?? settings.center;
    const remote = remoteStyle(settings.styleUrl);
    let fellBack = false;
    /** The style set last: 'pending' while the bundled one is being loaded. */
    let applied: StyleKind | 'pending' = remote === null ? 'pending' : 'remote';
    let disposed = false;
    const instance = new MapLibreMap({
      container: container.current!,
      style: remote ?? { version: 8, sources: {}, layers: [] },
      center: [start.longitude, start.latitude],
      zoom: settings.zoom,
      attributionControl: { compact: true },
      // A picking map: a second click on the same spot is a point (a duplicate), not a zoom.
      doubleClickZoom: false,
      locale: {
        'NavigationControl.ZoomIn': t('map.zoomIn'),
        'NavigationControl.ZoomOut': t('map.zoomOut'),
        'NavigationControl.ResetBearing': t('map.resetBearing'),
        'Map.Title': t('map.title'),
        'Marker.Title': t('map.marker'),
      },
    });
    map.current = instance;
    instance.addControl(new NavigationControl({ showCompass: false }), 'top-right');

    const drawZone = () => {
      const source = instance.getSource('zone') as GeoJSONSource | undefined;
      if (source) return source.setData(zoneData(zone.current));
      instance.addSource('zone', { type: 'geojson', data: zoneData(zone.current) });
      instance.addLayer({
        id: 'zone-fill',
        type: 'fill',
        source: 'zone',
        filter: ['==', ['geometry-type'], 'Polygon'],
        paint: { 'fill-color': '#2f9e44', 'fill-opacity': 0.25 },
      });
      instance.addLayer({
        id: 'zone-line',
        type: 'line',
        source: 'zone',
        filter: ['!=', ['geometry-type'], 'Point'],
        paint: { 'line-color': '#2b8a3e', 'line-width': 2 },
      });
      instance.addLayer({
        id: 'zone-points',
        type: 'circle',
        source: 'zone',
        filter: ['==', ['geometry-type'], 'Point'],
        paint: {
          'circle-radius': 6,
          'circle-color': '#ffffff',
          'circle-stroke-color': '#2b8a3e',
          'circle-stroke-width': 2,
        },
      });
    };
    /** The offline map's names, drawn once, one level shown at a time. */
    const names: Marker[] = [];
    const showNames = () => {
      const kind = labelKindAt(instance.getZoom());
      for (const name of names) {
        const element = name.getElement();
        element.style.display = element.dataset.kind === kind ? '' : 'none';
      }
    };
    const drawNames = async () => {
      if (names.length) return;
      const places = await loadBeninPlaces();
      if (disposed || names.length) return;
      for (const label of labelsOf(places)) {
        names.push(
          new Marker({ element: labelElement(label.kind, label.name) })
            .setLngLat([label.point.longitude, label.point.latitude])
            .addTo(instance),
        );
      }
      showNames();
      instance.on('zoom', showNames);
    };
    instance.on('style.load', () => {
      if (disposed) return;
      drawZone();
      if (applied === 'offline') void drawNames();
      if (applied !== 'pending') setLoaded(applied);
    });

    const fallBack = async () => {
      if (fellBack || disposed) return;
      fellBack = true;
      applied = 'pending';
      clearTimeout(timer);
      const style: StyleSpecification = await offlineStyle();
      if (disposed) return;
      setKind('offline');
      applied = 'offline';
      instance.setStyle(style, { diff: false });
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (remote === null) {
      void fallBack();
    } else {
      // The configured tiles must draw something soon; an error or silence → the bundled map.
      timer = setTimeout(() => void fallBack(), REMOTE_WAIT_MS);
      instance.on('error', () => void fallBack());
      instance.on('data', (event) => {
        if (event.dataType === 'source' && 'tile' in event && event.tile && !fellBack) {
          clearTimeout(timer);
        }
      });
    }

    instance.on('click', (event) =>
      pick.current(roundPoint({ latitude: event.lngLat.lat, longitude: event.lngLat.lng })),
    );
    draw.current = drawZone;

    return () => {
      disposed = true;
      clearTimeout(timer);
      pin.current?.remove();
      pin.current = null;
      for (const name of names) name.remove();
      instance.remove();
      map.current = null;
      draw.current = null;
    };
    // The map is made once; props are followed by the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings.styleUrl]);

  // The marker follows `marker`.
  useEffect(() => {
    const instance = map.current;
    if (!instance) return;
    if (!marker) {
      pin.current?.remove();
      pin.current = null;
      return;
    }
    if (!pin.current) {
      pin.current = new Marker({ draggable: true, color: '#2b8a3e' })
        .setLngLat([marker.longitude, marker.latitude])
        .addTo(instance);
      pin.current.getElement().setAttribute('aria-label', t('map.marker'));
      pin.current.getElement().dataset.testid = 'site-marker';
      pin.current.on('dragend', () => {
        const at = pin.current!.getLngLat();
        pick.current(roundPoint({ latitude: at.lat, longitude: at.lng }));
      });
    } else {
      pin.current.setLngLat([marker.longitude, marker.latitude]);
    }
  }, [marker, t]);

  // The zone's polygon follows `polygon`.
  useEffect(() => {
    if (map.current && ready) draw.current?.();
  }, [polygon, ready]);

  useEffect(() => {
    if (focus && map.current) {
      map.current.easeTo({ center: [focus.longitude, focus.latitude], duration: 0 });
    }
  }, [focus]);

  return (
    <Box
      ref={container}
      data-testid="site-map"
      data-style={kind}
      data-loaded={loaded ?? undefined}
      h={height}
      style={{ borderRadius: 8, overflow: 'hidden', position: 'relative' }}
    />
  );
}
