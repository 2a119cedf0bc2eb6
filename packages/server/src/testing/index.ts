export {
  type AgentListenerAnswer,
  type AgentTlsForTest,
  agentTlsForTest,
  callAgentListener,
  type MachineCertificate,
  machineCertificate,
  untrustedMachineCertificate,
} from "./agentIdentity.js";
export {
  type ApiHarness,
  type ApiHarnessContext,
  type ApiHarnessOptions,
  authorizationInterceptor,
  type ConfigOverrides,
  call,
  type GrpcClients,
  type GrpcTestServer,
  grpcClients,
  grpcFailure,
  grpcHealthStatus,
  type RecordingEngine,
  type RestResponse,
  rawHttp,
  recordingEngine,
  type ServiceHarness,
  type ServiceHarnessOptions,
  startApiHarness,
  startGrpcServer,
  startServiceHarness,
  type UnaryCallback,
} from "./apiHarness.js";
export { type CapturedLogs, captureLogger, type LogLevel, type LogRecord } from "./captureLogger.js";
export { fakeApiContext, widget } from "./fakeApiContext.js";
export { HARNESS_ADMIN, harnessGate } from "./harnessGate.js";
export { startTestIdentityProvider, type TestIdentityProvider } from "./identityProvider.js";
export { recordingGrpc } from "./recordingGrpc.js";
export { openTestDatabase, TEST_DATABASE_URL, type TestDatabase, uniqueSchema } from "./testDatabase.js";
export { latch, type WaitForOptions, waitFor } from "./waitFor.js";
