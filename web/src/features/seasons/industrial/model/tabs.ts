/**
 * The detail's tabs, in order. Apart from the page: the route's search validation reads them
 * at start-up, the page's code is loaded with the screen.
 */
export const SEASON_TABS = ['details', 'requests', 'providers'] as const;
export type SeasonTab = (typeof SEASON_TABS)[number];
