import type { StyleSpecification } from 'maplibre-gl';

/** What the map draws with: the configured source, or the bundled fallback. */
export type StyleKind = 'remote' | 'offline';

export const OSM_ATTRIBUTION = '© OpenStreetMap contributors';

/**
 * MAP_STYLE_URL as a MapLibre style: a raster tile template ({z}/{x}/{y}, OpenStreetMap's by
 * default) becomes a one-layer raster style; any other URL is a style JSON; 'offline' is null
 * (the bundled fallback).
 */
export function remoteStyle(styleUrl: string): StyleSpecification | string | null {
  if (styleUrl === 'offline') return null;
  if (!styleUrl.includes('{z}')) return styleUrl;
  return {
    version: 8,
    sources: {
      tiles: {
        type: 'raster',
        tiles: [styleUrl],
        tileSize: 256,
        maxzoom: 19,
        attribution: styleUrl.includes('openstreetmap.org') ? OSM_ATTRIBUTION : '',
      },
    },
    layers: [{ id: 'tiles', type: 'raster', source: 'tiles' }],
  };
}

/**
 * The bundled fallback: Natural Earth's countries (world-atlas, 1:50m) drawn as land on the
 * sea with their borders, Benin tinted, from the app's own files — a real map with no
 * internet, loaded only when needed. No text layers (they would need a glyph server).
 */
export async function offlineStyle(): Promise<StyleSpecification> {
  const [{ feature, mesh }, atlas] = await Promise.all([
    import('topojson-client'),
    import('world-atlas/countries-50m.json'),
  ]);
  const topology = atlas.default as unknown as Parameters<typeof feature>[0];
  const countries = feature(topology, topology.objects.countries!);
  const borders = mesh(topology, topology.objects.countries as never, (a, b) => a !== b);
  return {
    version: 8,
    sources: {
      countries: { type: 'geojson', data: countries, attribution: 'Natural Earth' },
      borders: { type: 'geojson', data: borders },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#b8d8ea' } },
      { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': '#f1eee4' } },
      {
        id: 'benin',
        type: 'fill',
        source: 'countries',
        filter: ['==', ['get', 'name'], 'Benin'],
        paint: { 'fill-color': '#e3eed3' },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'borders',
        paint: { 'line-color': '#7d7d7d', 'line-width': 1.2, 'line-dasharray': [3, 2] },
      },
      {
        id: 'coast',
        type: 'line',
        source: 'countries',
        paint: { 'line-color': '#6b9bb8', 'line-width': 1 },
      },
    ],
  };
}
