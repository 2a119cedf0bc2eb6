import { generate } from "selfsigned";

export interface TlsCertificate {
  readonly key: string;
  readonly cert: string;
}

/** A fresh self-signed certificate for `localhost` and 127.0.0.1 (EC: generating it takes milliseconds). */
export async function createSelfSignedCertificate(): Promise<TlsCertificate> {
  const generated = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(Date.now() - 60_000),
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
          { type: 7, ip: "::1" },
        ],
      },
    ],
  });
  return { key: generated.private, cert: generated.cert };
}
