import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { fr } from './fr.js';
import { resources } from './resources.js';

describe('language bundles', () => {
  it('hold every namespace of every language, as the locale files have them', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(resources.fr).sort());
    expect(Object.keys(en).sort()).toEqual(Object.keys(resources.en).sort());
    expect(fr.errors).toEqual(resources.fr.errors);
    expect(en.common).toEqual(resources.en.common);
  });
});
