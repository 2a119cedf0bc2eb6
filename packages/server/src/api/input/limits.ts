/**
 * How long request strings and how large request arrays may be. Every string and array of a REST request
 * schema has a limit: its own when the field has a natural one, else the default (set when the route is
 * registered, so `/openapi.json` shows it too).
 */

/** The longest string a request field may hold unless its schema says otherwise. */
export const DEFAULT_MAX_STRING_LENGTH = 1024;
/** The most items a request array may hold unless its schema says otherwise. */
export const DEFAULT_MAX_ARRAY_ITEMS = 1000;

/** Ids and names: machines, instances, partitions, tenants, sources, states. */
export const MAX_ID_LENGTH = 255;
/** A MAC address in any of its textual forms, with room for separators and surrounding blanks. */
export const MAX_MAC_LENGTH = 64;
/** A BMC address: an IP address, a host name (at most 253) or a URL. */
export const MAX_ADDRESS_LENGTH = 255;
/** A password or other secret. */
export const MAX_PASSWORD_LENGTH = 256;
/** Free text written for people: an alert message, an issue summary. */
export const MAX_MESSAGE_LENGTH = 4096;
