/**
 * Where the page loads its runtime configuration (CLIENT_CONFIG_PATH of the contract), and where the
 * service worker keeps its last copy. Apart from the contract so that boot.ts and the worker, which
 * both need the name, do not carry zod.
 */
export const CONFIG_URL = '/config.json';

/** IndexedDB (idb-keyval) database and store of the worker's last copy: not user data, kept on sign-out. */
export const CONFIG_DB = 'copy-monitor-config';
export const CONFIG_STORE = 'config';
