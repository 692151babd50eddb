import { describe, expect, it } from 'vitest';
import { plusCodeOf } from './plus-code.js';

describe('plus codes', () => {
  it('encodes a point as its 10-digit Open Location Code, computed locally', () => {
    // Google's reference example: 47.365590, 8.524997 → 8FVC9G8F+6X.
    expect(plusCodeOf({ latitude: 47.36559, longitude: 8.524997 })).toBe('8FVC9G8F+6X');
    // The default map centre, near Cotonou.
    expect(plusCodeOf({ latitude: 6.37, longitude: 2.39 })).toBe('6FR499CQ+2X');
  });
});
