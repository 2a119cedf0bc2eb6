/** A Redfish resource as received: a JSON object. Typed views live in `resources/`. */
export type RedfishObject = { [key: string]: unknown };

/** A link to another resource. */
export interface ODataLink {
  "@odata.id": string;
}
