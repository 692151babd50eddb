/** The sites feature: an industrial's stores and coverage zones on maps. */
export { StoresPage } from './components/StoresPage.js';
export { ZonesPage } from './components/ZonesPage.js';
export { PlaceFormOverlay } from './components/PlaceFormOverlay.js';
export { ZoneFormOverlay } from './components/ZoneFormOverlay.js';
export { SiteMap } from './components/SiteMap.js';
