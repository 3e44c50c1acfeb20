/**
 * `connector-cloud` (seed 002): the hosted connector service, registered by
 * default outside ephemeral instances (`cloudConnectors: false` or
 * `{"id": "connector-cloud", "enabled": false}` in plugins.json turns it off).
 * It registers two tools and touches no network at start:
 *
 * - `cloud__connect {app}` — a hosted link the user opens to connect an account
 *   of an app (the service does the OAuth and the verified binding);
 * - `cloud__action {app, action, input}` — runs an action of a connected app.
 *
 * The account is bound from trusted configuration (`config.account`), never
 * from model input. A missing `url` or token is a tool error, not a start
 * failure. Built on {@link createConnectorPlugin}.
 *
 * @module
 */
export { type CloudConfig, cloudConnectorPlugin, type CloudDeps } from "./plugin.ts";
