/** The industrial's season tab "Fournisseur d'intrants" (H2 wires it into the season detail). */
export { SeasonProvidersTab } from './components/SeasonProvidersTab.js';
