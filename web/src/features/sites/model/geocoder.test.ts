import { describe, expect, it, vi } from 'vitest';
import { Geocoder } from './geocoder.js';
import { plusCodeOf } from './plus-code.js';

const point = { latitude: 6.37, longitude: 2.39 };
const local = vi.fn(async () => [{ label: 'ACCLOHOUE, AGBANOU, ALLADA, ATLANTIQUE' }]);

describe('geocoder with its offline fallbacks', () => {
  it('asks the Nominatim-compatible service while it answers', async () => {
    const fetch = vi.fn(async (url: string | URL | Request) => {
      const u = new URL(String(url));
      expect(u.searchParams.get('format')).toBe('jsonv2');
      const body = u.pathname.endsWith('/search')
        ? [{ display_name: 'Cotonou, Bénin', lat: '6.3654321987', lon: '2.4183' }]
        : { display_name: 'Rue 12.110, Cotonou, Bénin' };
      return new Response(JSON.stringify(body), { status: 200 });
    });
    const geocoder = new Geocoder({
      geocoderUrl: 'https://geo.example.bj',
      fetch,
      searchLocal: local,
    });
    expect(await geocoder.search('cotonou')).toEqual([
      { label: 'Cotonou, Bénin', point: { latitude: 6.3654322, longitude: 2.4183 } },
    ]);
    expect(await geocoder.reverse(point)).toBe(`${plusCodeOf(point)}, Rue 12.110, Cotonou, Bénin`);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('falls back to the reference data and the plus code once the service fails, and stops asking it', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const geocoder = new Geocoder({
      geocoderUrl: 'https://geo.example.bj',
      fetch,
      searchLocal: local,
    });
    expect(await geocoder.reverse(point)).toBe(plusCodeOf(point));
    expect(geocoder.online).toBe(false);
    expect(await geocoder.search('acclo')).toEqual([
      { label: 'ACCLOHOUE, AGBANOU, ALLADA, ATLANTIQUE', point: null },
    ]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('never calls out when configured offline', async () => {
    const fetch = vi.fn();
    const geocoder = new Geocoder({ geocoderUrl: 'offline', fetch, searchLocal: local });
    expect(await geocoder.reverse(point)).toBe('6FR499CQ+2X');
    expect(await geocoder.search('a')).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });
});
