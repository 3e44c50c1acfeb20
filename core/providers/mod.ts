/**
 * Providers the kernel knows itself: the catalog (registered, `.conf`,
 * executable), executable providers, stored credentials and the secrets kept
 * out of child environments.
 *
 * @module
 */
export * from "./catalog.ts";
export * from "./executable_provider.ts";
export * from "./auth.ts";
export * from "./secrets.ts";
export { followStream, type StreamFollower } from "./stream_follow.ts";
export * from "./auth_cache.ts";
export * from "./provider_credentials.ts";
export * from "./limits.ts";
export * from "./reach.ts";
