export { TokenGate, type TokenGateOptions } from "./accessGate.js";
export { type AccessRule, type AccessScope, accessRuleOf, GRPC_ACCESS, REST_ACCESS } from "./accessTable.js";
export type { AuditEntry, AuditQuery } from "./audit/auditLog.js";
export type { AgentCertificateGrant, AgentCertificates } from "./certificates/agentCertificates.js";
export { agentListenerCredentials } from "./certificates/agentListener.js";
export { type AgentCertificateRequest, createAgentCertificateRequest } from "./certificates/agentRequest.js";
export { ADMIN_TOKEN_FILE, AUTH_CONFIG_SCHEMA, type AuthConfig, type OidcConfig } from "./config.js";
export { PermissionDeniedError, TokenNotFoundError, UnauthenticatedError } from "./errors.js";
export { isLoopbackHost } from "./loopback.js";
export { type Auth, type AuthSetupOptions, setupAuth } from "./setupAuth.js";
export { mappedRole } from "./tokens/oidc.js";
export {
  type IssuedToken,
  SERVICE_AUDIENCE,
  type TokenRequest,
  tokenRequestProblem,
} from "./tokens/serviceTokens.js";
export type { TokenRecord } from "./tokens/tokenStore.js";
export type { WorkloadIdentities, WorkloadIdentityRequest } from "./workloadIdentity/workloadIdentities.js";
