/** The industrial's season screens and the shell's invitation bell. */
export { InvitationBell } from './components/InvitationBell.js';
export { IndustrialSeasonsPage } from './components/IndustrialSeasonsPage.js';
export {
  IndustrialSeasonPage,
  SEASON_TABS,
  type SeasonTab,
} from './components/IndustrialSeasonPage.js';
export { SeasonAcceptance } from './components/SeasonAcceptance.js';
