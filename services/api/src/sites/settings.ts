import type { Config } from '@filiere/platform';
import { DEFAULT_CENTER, DEFAULT_ZOOM } from './domain/geometry.js';

type MapConfig = Pick<Config, 'MAP_STYLE_URL' | 'GEOCODER_URL'>;

/** What the web's maps are given (GET sites/map-settings). */
export const mapSettings = (config: MapConfig) => ({
  styleUrl: config.MAP_STYLE_URL,
  geocoderUrl: config.GEOCODER_URL,
  center: DEFAULT_CENTER,
  zoom: DEFAULT_ZOOM,
});

const originOf = (url: string) => {
  if (url === 'offline') return [];
  // A tile template's braces are not a valid host: the origin is before the first path.
  const match = /^(https?:\/\/[^/?#]+)/.exec(url);
  return match ? [match[1]!.replace(/\{[^}]*\}/g, '*')] : [];
};

/**
 * What the Content-Security-Policy adds to 'self' for the maps: the tile or style origin
 * (fetched by MapLibre, drawn as images) and the geocoder's origin (fetched by the browser).
 * A style JSON that names other hosts (glyphs, sprites, vector tiles) needs them served from
 * the same origin, or MAP_STYLE_URL pointing to a copy that does.
 */
export function mapContentSecurity(config: MapConfig): { connectSrc: string[]; imgSrc: string[] } {
  const map = originOf(config.MAP_STYLE_URL);
  const geocoder = originOf(config.GEOCODER_URL);
  return { connectSrc: [...new Set([...map, ...geocoder])], imgSrc: map };
}
