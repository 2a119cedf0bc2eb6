import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";

/** A stand-in OIDC provider: its JWKS served over HTTP, and tokens signed with its key (or another). */
export interface TestIdentityProvider {
  readonly issuer: string;
  readonly jwksUrl: string;
  /**
   * A token with `claims` (its `sub` default `alice`), this provider's issuer and `audience` unless told
   * otherwise, valid 10 minutes unless `expiresAt` (seconds) says; `forged` signs with a key it does not publish.
   */
  sign(
    claims: Record<string, unknown>,
    options?: { issuer?: string; audience?: string; expiresAt?: number; forged?: boolean },
  ): Promise<string>;
  stop(): Promise<void>;
}

/** Starts one on a free local port. */
export async function startTestIdentityProvider(options: {
  issuer: string;
  audience: string;
}): Promise<TestIdentityProvider> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const forgedKey = (await generateKeyPair("RS256")).privateKey;
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "idp-1", alg: "RS256", use: "sig" };
  const server: Server = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(request.url === "/jwks" ? JSON.stringify({ keys: [jwk] }) : "{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    issuer: options.issuer,
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    sign: (claims, signing = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "idp-1" })
        .setIssuer(signing.issuer ?? options.issuer)
        .setAudience(signing.audience ?? options.audience)
        .setSubject(String(claims.sub ?? "alice"))
        .setIssuedAt()
        .setExpirationTime(signing.expiresAt ?? Math.floor(Date.now() / 1000) + 600)
        .sign(signing.forged ? forgedKey : privateKey),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
