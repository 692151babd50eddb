import { describe, expect, it } from 'vitest';
import { formatFileSize } from './file-size.js';

describe('file size', () => {
  it('uses units of 1024 with 2 decimals', () => {
    expect(formatFileSize(512)).toBe('512.00 o');
    expect(formatFileSize(1536)).toBe('1.50 Ko');
    expect(formatFileSize(3 * 1024 * 1024)).toBe('3.00 Mo');
  });
});
