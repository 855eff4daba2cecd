import { type SecretsKeys, secretVault } from "../../src/secrets/secret-vault";

/** The key tests seal secrets with (the API's testConfig, use cases called directly, cron processes). */
export const TEST_SECRETS_KEYS: SecretsKeys = {
  key: "test-secrets-key-test-secrets-key-0123456789",
  previousKey: null,
};

export const testVault = secretVault(TEST_SECRETS_KEYS);
