import { Anchor, Menu, createTheme, type CSSVariablesResolver } from '@mantine/core';

/** Pineapple-leaf green as the primary colour; contrast-checked shades for text on white. */
export const theme = createTheme({
  colors: {
    // Pineapple-leaf green, darker than Mantine's green so text reaches 4.5:1 on white.
    leaf: [
      '#e8f5e9',
      '#c8e6c9',
      '#a5d6a7',
      '#81c784',
      '#66bb6a',
      '#4caf50',
      '#43a047',
      '#388e3c',
      '#2e7d32',
      '#1b5e20',
    ],
  },
  primaryColor: 'leaf',
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // Links inside text must not rely on colour alone (axe link-in-text-block).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Mantine opens a menu with focus on a hidden placeholder, a role="presentation" element
    // with tabindex: focusable, so its role is ignored and the menu owns an element that is
    // not a menu item (axe aria-required-children, critical) for as long as the menu is in
    // the page, closing transition included. Without it the focus trap focuses the menu
    // itself (tabindex -1), as the placeholder did: ArrowDown still reaches the first item.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
  },
});

/** Links and dimmed text dark enough for WCAG AA contrast on white and on gray-0. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-anchor': 'var(--mantine-color-leaf-9)',
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
