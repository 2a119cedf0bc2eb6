import { RacksmithError } from "@racksmith/core";
import { formatMode, privateModeFix } from "./fileModes.js";

// Credential errors name files and keys, never a secret value.

/** The key file the secrets are encrypted with is missing while secrets need it. */
export class CredentialKeyMissingError extends RacksmithError {
  constructor(
    readonly keyFile: string,
    reason: string,
  ) {
    super("credentials_key_missing", "FAILED_PRECONDITION", `credentials key file ${keyFile} ${reason}`, {
      details: { keyFile },
    });
  }
}

/** A key file, secrets directory or secret file other users could read: refused until fixed. */
export class CredentialPermissionsError extends RacksmithError {
  constructor(
    readonly path: string,
    mode: number,
    directory: boolean,
  ) {
    const fix = privateModeFix(path, directory ? "directory" : "file");
    super(
      "credentials_insecure_permissions",
      "FAILED_PRECONDITION",
      `${path} is accessible by group or others (mode ${formatMode(mode)}); run: ${fix}`,
      { details: { path, mode: mode & 0o777, fix } },
    );
  }
}

export class CredentialKeyInvalidError extends RacksmithError {
  constructor(
    readonly keyFile: string,
    reason: string,
  ) {
    super("credentials_key_invalid", "FAILED_PRECONDITION", `credentials key file ${keyFile}: ${reason}`, {
      details: { keyFile },
    });
  }
}

export class CredentialKeyExistsError extends RacksmithError {
  constructor(readonly keyFile: string) {
    super(
      "credentials_key_exists",
      "ALREADY_EXISTS",
      `credentials key file ${keyFile} already exists; a new key would make the stored secrets unreadable`,
      { details: { keyFile } },
    );
  }
}

/** A secret file that fails authentication: modified, truncated, or sealed with another key. */
export class CredentialCorruptError extends RacksmithError {
  constructor(
    readonly key: string,
    readonly file: string,
    reason: string,
  ) {
    super(
      "credential_corrupt",
      "FAILED_PRECONDITION",
      `credential ${key} (${file}) cannot be read: ${reason}`,
      {
        details: { key, file },
      },
    );
  }
}

/** A credential that comes from a file named in the config: change that file instead. */
export class CredentialReadOnlyError extends RacksmithError {
  constructor(
    readonly key: string,
    readonly setting: string,
    readonly file: string,
  ) {
    super(
      "credential_read_only",
      "FAILED_PRECONDITION",
      `credential ${key} comes from ${file} (config ${setting}); change that file instead`,
      { details: { key, setting, file } },
    );
  }
}

/** A secret file named in the config, or the store's directory, cannot be read or written. */
export class CredentialFileError extends RacksmithError {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super("credential_file_unreadable", "FAILED_PRECONDITION", `${file}: ${reason}`, { details: { file } });
  }
}
