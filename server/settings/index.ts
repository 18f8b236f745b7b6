/** The door of settings: what other parts of the server may use (they import nothing else from this folder). */
export { reloadSettings as startSettings } from './settings';
export { startSettingsRelay } from './relay';
export { settingsRouter } from './settingsRoutes';
