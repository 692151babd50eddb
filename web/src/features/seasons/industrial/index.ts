/** The industrial's season screens and the shell's invitation bell. */
export { InvitationBell } from './components/InvitationBell.js';
export { IndustrialSeasonsPage } from './components/IndustrialSeasonsPage.js';
export { IndustrialSeasonPage } from './components/IndustrialSeasonPage.js';
export { SEASON_TABS, type SeasonTab } from './model/tabs.js';
export { SeasonAcceptance } from './components/SeasonAcceptance.js';
