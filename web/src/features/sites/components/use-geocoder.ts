import { useMemo } from 'react';
import { searchLocalAddresses, type MapSettings } from '../api/sites.js';
import { Geocoder } from '../model/geocoder.js';

/** The session's geocoder for GEOCODER_URL, falling back to the reference data offline. */
export function useGeocoder(settings: MapSettings | undefined): Geocoder | null {
  return useMemo(
    () =>
      settings
        ? new Geocoder({
            geocoderUrl: settings.geocoderUrl,
            fetch: (...args) => window.fetch(...args),
            searchLocal: async (q) => (await searchLocalAddresses(q)).data,
          })
        : null,
    [settings],
  );
}
