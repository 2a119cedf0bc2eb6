/** Route documentation fields our OpenAPI document reads from each route's schema. */
declare module "fastify" {
  interface FastifySchema {
    summary?: string;
    description?: string;
    tags?: string[];
    /** Leave the route out of the OpenAPI document. */
    hide?: boolean;
  }
}

export {};
