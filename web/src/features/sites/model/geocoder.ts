import { roundPoint, type Point } from '@filiere/api/sites/geometry';
import { plusCodeOf } from './plus-code.js';

/** An address suggestion; `point` is null for a place of the reference data (no coordinates). */
export interface AddressSuggestion {
  label: string;
  point: Point | null;
}

export interface GeocoderDeps {
  /** GEOCODER_URL: a Nominatim-compatible base URL, or 'offline'. */
  geocoderUrl: string;
  fetch: typeof fetch;
  /** The offline suggestions (GET sites/address-search: the locations reference data). */
  searchLocal: (q: string) => Promise<{ label: string }[]>;
  /** How long the geocoder may take before the fallback answers. */
  timeoutMs?: number;
}

interface NominatimPlace {
  display_name?: string;
  lat?: string;
  lon?: string;
}

/**
 * The browser's geocoder (spec §2.12, §7: "called from the browser, address to coordinates
 * and coordinates to address"): the configured Nominatim-compatible service while it answers;
 * once it fails (no internet, blocked, 'offline') the reference data for suggestions and the
 * locally computed plus code for addresses, for the rest of the session.
 */
export class Geocoder {
  private down: boolean;

  constructor(private readonly deps: GeocoderDeps) {
    this.down = deps.geocoderUrl === 'offline';
  }

  /** Whether the remote service is still tried. */
  get online() {
    return !this.down;
  }

  private async remote<T>(path: string, params: Record<string, string>): Promise<T | undefined> {
    if (this.down) return undefined;
    const url = new URL(path, this.deps.geocoderUrl.replace(/\/?$/, '/'));
    for (const [k, v] of Object.entries({ format: 'jsonv2', 'accept-language': 'fr', ...params })) {
      url.searchParams.set(k, v);
    }
    try {
      const answer = await this.deps.fetch(url.toString(), {
        signal: AbortSignal.timeout(this.deps.timeoutMs ?? 4000),
        headers: { accept: 'application/json' },
      });
      if (!answer.ok) throw new Error(`geocoder answered ${answer.status}`);
      return (await answer.json()) as T;
    } catch {
      this.down = true;
      return undefined;
    }
  }

  /** Suggestions for a typed address (at least 2 characters). */
  async search(q: string): Promise<AddressSuggestion[]> {
    const text = q.trim();
    if (text.length < 2) return [];
    const found = await this.remote<NominatimPlace[]>('search', { q: text, limit: '5' });
    if (found) {
      return found
        .filter((p) => p.display_name && p.lat && p.lon)
        .map((p) => ({
          label: p.display_name!,
          point: roundPoint({ latitude: Number(p.lat), longitude: Number(p.lon) }),
        }));
    }
    const local = await this.deps.searchLocal(text);
    return local.map((p) => ({ label: p.label, point: null }));
  }

  /**
   * The address of a point: its plus code, followed by the geocoder's address when one
   * answers ('6FR499CQ+2X, Rue 12.110, Cotonou, Bénin'); the plus code alone offline.
   */
  async reverse(point: Point): Promise<string> {
    const code = plusCodeOf(point);
    const found = await this.remote<NominatimPlace>('reverse', {
      lat: String(point.latitude),
      lon: String(point.longitude),
    });
    return found?.display_name ? `${code}, ${found.display_name}` : code;
  }
}
