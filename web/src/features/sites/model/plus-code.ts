import { OpenLocationCode } from 'open-location-code';
import type { Point } from '@filiere/api/sites/geometry';

/** The library's coder: its methods are on instances (its published types say static). */
const coder = new (
  OpenLocationCode as unknown as new () => {
    encode(latitude: number, longitude: number, codeLength?: number): string;
  }
)();

/**
 * A point's plus code (Open Location Code, 10 digits: about 14 m), computed in the browser:
 * the address a click gives when no geocoder answers (spec §2.12 "the reverse-geocoded plus
 * code"), e.g. '6FR499CQ+2X'.
 */
export const plusCodeOf = (point: Point): string =>
  coder.encode(point.latitude, point.longitude, 10);
