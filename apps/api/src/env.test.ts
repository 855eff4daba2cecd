import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { answersChecked, readEnv } from "./env";

describe("readEnv", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "allot-env-"));
    dirs.push(dir);
    return dir;
  };

  it("applies the documented defaults, throttle rates parsed", async () => {
    const root = await tempDir();
    const env = readEnv({ INIT_CWD: root });
    expect(env.port).toBe(3000);
    expect(env.host).toBe("127.0.0.1");
    expect(env.database).toEqual({ dataDir: join(root, ".data", "pglite") });
    expect(env.config.publicBaseUrl).toBe("http://127.0.0.1:3000");
    expect(env.config.throttle.user).toEqual([
      { limit: 1000, windowSeconds: 60 },
      { limit: 20000, windowSeconds: 3600 },
    ]);
    expect(env.config.throttle.anon).toEqual([
      { limit: 100, windowSeconds: 60 },
      { limit: 100, windowSeconds: 3600 },
    ]);
    expect(env.config.throttle.loginPerIp).toEqual([{ limit: 10, windowSeconds: 60 }]);
  });

  it("writes mail to files under the data folder by default, prints it with `log`, and needs a key for resend", async () => {
    const root = await tempDir();
    // Unset: the outbox on disk (decision 0054), in DATA_DIR/mail, MAIL_DIR elsewhere.
    expect(readEnv({ INIT_CWD: root }).mail).toEqual({
      transport: "file",
      from: "Allot <noreply@allot.localhost>",
      directory: join(root, ".data", "mail"),
    });
    expect(readEnv({ INIT_CWD: root, DATA_DIR: "elsewhere" }).mail).toMatchObject({
      transport: "file",
      directory: join(root, "elsewhere", "mail"),
    });
    expect(readEnv({ INIT_CWD: root, MAIL_DIR: "outbox" }).mail).toMatchObject({
      transport: "file",
      directory: join(root, "outbox"),
    });
    expect(readEnv({ INIT_CWD: root, MAIL_TRANSPORT: "log" }).mail).toEqual({
      transport: "log",
      from: "Allot <noreply@allot.localhost>",
      logBodies: false,
    });
    expect(readEnv({ INIT_CWD: root, MAIL_TRANSPORT: "log", MAIL_LOG_BODIES: "true" }).mail).toMatchObject({
      logBodies: true,
    });
    expect(() => readEnv({ INIT_CWD: root, MAIL_LOG_BODIES: "yes" })).toThrow(/MAIL_LOG_BODIES/);
    expect(readEnv({ INIT_CWD: root, MAIL_TRANSPORT: "file" }).mail).toMatchObject({
      transport: "file",
      directory: join(root, ".data", "mail"),
    });
    expect(readEnv({ INIT_CWD: root, MAIL_TRANSPORT: "file", MAIL_DIR: "outbox" }).mail).toMatchObject({
      directory: join(root, "outbox"),
    });
    expect(() => readEnv({ INIT_CWD: root, MAIL_TRANSPORT: "resend" })).toThrow("RESEND_API_KEY");
    expect(
      readEnv({ INIT_CWD: root, MAIL_TRANSPORT: "resend", RESEND_API_KEY: "re_x", MAIL_FROM: "A <a@b.c>" })
        .mail,
    ).toEqual({ transport: "resend", apiKey: "re_x", from: "A <a@b.c>" });
  });

  it("sends through SMTP_URL with `smtp`, trusting SMTP_TLS_CA, and never repeats the URL in an error", async () => {
    const root = await tempDir();
    const base = { INIT_CWD: root, MAIL_TRANSPORT: "smtp", MAIL_FROM: "A <a@b.c>" };
    expect(() => readEnv(base)).toThrow("SMTP_URL is required with MAIL_TRANSPORT=smtp");
    expect(readEnv({ ...base, SMTP_URL: "smtp://user:p%40ss@mail.example.com:587" }).mail).toEqual({
      transport: "smtp",
      from: "A <a@b.c>",
      url: "smtp://user:p%40ss@mail.example.com:587",
    });
    expect(readEnv({ ...base, SMTP_URL: "smtps://mail.example.com" }).mail).toMatchObject({
      transport: "smtp",
    });
    for (const bad of ["http://user:hunter2@mail.example.com", "smtp://user:hunter2@", "hunter2"]) {
      const attempt = () => readEnv({ ...base, SMTP_URL: bad });
      expect(attempt).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
      expect(attempt).not.toThrow(/hunter2/);
    }

    const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    await writeFile(join(root, "ca.pem"), pem);
    await writeFile(join(root, "not-a-certificate.txt"), "hello");
    const withCa = (path: string) =>
      readEnv({ ...base, SMTP_URL: "smtp://mail.example.com", SMTP_TLS_CA: path }).mail;
    expect(withCa("ca.pem")).toMatchObject({ ca: pem });
    expect(withCa(join(root, "ca.pem"))).toMatchObject({ ca: pem });
    expect(() => withCa("missing.pem")).toThrow(
      `SMTP_TLS_CA: cannot read ${join(root, "missing.pem")} (ENOENT)`,
    );
    expect(() => withCa("not-a-certificate.txt")).toThrow("holds no PEM certificate");
  });

  it("keeps one generated JWT secret in the embedded data folder", async () => {
    const root = await tempDir();
    const first = readEnv({ INIT_CWD: root }).config.jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readEnv({ INIT_CWD: root }).config.jwtSecret).toBe(first);
  });

  it("takes rates from the environment and refuses bad ones", () => {
    const env = readEnv({
      DATA_DIR: "/tmp/allot-env-unused",
      THROTTLE_RATE_USER: "5/second",
      JWT_SECRET: "x".repeat(32),
    });
    expect(env.config.throttle.user).toEqual([{ limit: 5, windowSeconds: 1 }]);
    expect(() => readEnv({ THROTTLE_RATE_ANON: "lots" })).toThrow(/THROTTLE_RATE_ANON/);
    // Unset, the email-sending limits take throttle-checks.ts's defaults.
    expect(env.config.throttle.invitationsPerUser).toBeUndefined();
    const emails = readEnv({
      DATA_DIR: "/tmp/allot-env-unused",
      JWT_SECRET: "x".repeat(32),
      THROTTLE_RATE_INVITATIONS: "50/day",
      THROTTLE_RATE_PASSWORD_RESET_EMAIL: "2/hour",
      THROTTLE_RATE_PASSWORD_RESET_EMAIL_CEILING: "9/hour",
    }).config.throttle;
    expect(emails.invitationsPerUser).toEqual([{ limit: 50, windowSeconds: 86_400 }]);
    expect(emails.passwordResetEmailPerAddress).toEqual([{ limit: 2, windowSeconds: 3600 }]);
    expect(emails.passwordResetEmailCeiling).toEqual([{ limit: 9, windowSeconds: 3600 }]);
    expect(() => readEnv({ THROTTLE_RATE_INVITATIONS: "many" })).toThrow(/THROTTLE_RATE_INVITATIONS/);
  });

  it("runs the scheduler in the server on the embedded database only, unless told", () => {
    const unused = "/tmp/allot-env-unused";
    const url = { DATABASE_URL: "postgres://root@127.0.0.1/x", JWT_SECRET: "x".repeat(32) };
    expect(readEnv({ DATA_DIR: unused, JWT_SECRET: "x".repeat(32) }).scheduler).toBe("embedded");
    expect(readEnv({ DATA_DIR: unused, JWT_SECRET: "x".repeat(32), SCHEDULER: "off" }).scheduler).toBe("off");
    expect(readEnv(url).scheduler).toBe("off");
    expect(readEnv({ ...url, SCHEDULER: "embedded" }).scheduler).toBe("embedded");
    expect(() => readEnv({ ...url, SCHEDULER: "yes" })).toThrow(/SCHEDULER/);
  });

  it("keeps throttle counters in the database unless REDIS_URL names a Redis", () => {
    const base = { DATA_DIR: "/tmp/allot-env-unused", JWT_SECRET: "x".repeat(32) };
    expect(readEnv(base).redis).toBeNull();
    expect(readEnv({ ...base, REDIS_URL: "redis://127.0.0.1:6379" }).redis).toEqual({
      url: "redis://127.0.0.1:6379",
      prefix: "allot:throttle:",
    });
    expect(
      readEnv({ ...base, REDIS_URL: "rediss://:secret@cache.internal:6380/2", REDIS_KEY_PREFIX: "eu:" })
        .redis,
    ).toEqual({ url: "rediss://:secret@cache.internal:6380/2", prefix: "eu:" });
    expect(() => readEnv({ ...base, REDIS_URL: "127.0.0.1:6379" })).toThrow(/REDIS_URL/);
    expect(() => readEnv({ ...base, REDIS_URL: "http://127.0.0.1:6379" })).toThrow(/REDIS_URL/);
  });

  it("trusts no proxy unless TRUST_PROXY names addresses, CIDR ranges or a hop count", () => {
    const base = { DATA_DIR: "/tmp/allot-env-unused", JWT_SECRET: "x".repeat(32) };
    const trusted = (value: string) => readEnv({ ...base, TRUST_PROXY: value }).config.trustProxy;
    expect(readEnv(base).config.trustProxy).toBeUndefined();
    expect(trusted("10.0.0.1")).toEqual(["10.0.0.1"]);
    expect(trusted(" 10.0.0.1, 172.16.0.0/12 ,::1,fd00::/8,loopback")).toEqual([
      "10.0.0.1",
      "172.16.0.0/12",
      "::1",
      "fd00::/8",
      "loopback",
    ]);
    expect(trusted("2")).toBe(2);
    for (const wrong of [
      "",
      " , ",
      "proxy.internal",
      "10.0.0.0/33",
      "::/129",
      "10.0.0.1/8/8",
      "true",
      "-1",
      "1.5",
    ])
      expect(() => readEnv({ ...base, TRUST_PROXY: wrong }), wrong).toThrow(/TRUST_PROXY/);
  });

  it("keeps receipt files under the data folder, at most 10 MB each unless ATTACHMENT_MAX_BYTES lowers it", async () => {
    const root = await tempDir();
    const env = readEnv({ INIT_CWD: root });
    expect(env.attachments).toEqual({ storage: "local", directory: join(root, ".data", "attachments") });
    expect(env.config.attachmentMaxBytes).toBe(10_000_000);
    expect(readEnv({ INIT_CWD: root, ATTACHMENT_MAX_BYTES: "1000000" }).config.attachmentMaxBytes).toBe(
      1_000_000,
    );
    for (const wrong of ["0", "-1", "1.5", "ten", "10000001"])
      expect(() => readEnv({ INIT_CWD: root, ATTACHMENT_MAX_BYTES: wrong }), wrong).toThrow(
        /ATTACHMENT_MAX_BYTES/,
      );
  });

  it("keeps receipt files in an S3-compatible bucket with ATTACHMENT_STORAGE=s3, naming what is missing but never the secret", async () => {
    const root = await tempDir();
    const s3 = {
      INIT_CWD: root,
      ATTACHMENT_STORAGE: "s3",
      S3_BUCKET: "receipts",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "allot",
      S3_SECRET_ACCESS_KEY: "s3cr3t-value",
      S3_FORCE_PATH_STYLE: "true",
    };
    expect(readEnv(s3).attachments).toEqual({
      storage: "s3",
      bucket: "receipts",
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      accessKeyId: "allot",
      secretAccessKey: "s3cr3t-value",
      forcePathStyle: true,
    });
    const { S3_BUCKET: _bucket, ...noBucket } = s3;
    expect(() => readEnv(noBucket)).toThrow(/ATTACHMENT_STORAGE=s3 needs S3_BUCKET \(/);
    const { S3_ACCESS_KEY_ID: _id, ...noKey } = s3;
    expect(() => readEnv(noKey)).toThrow(/S3_ACCESS_KEY_ID/);
    for (const wrong of [{ ATTACHMENT_STORAGE: "ftp" }, { S3_ENDPOINT: "not a url" }, { S3_BUCKET: "ab" }]) {
      let message = "";
      try {
        readEnv({ ...s3, ...wrong });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, JSON.stringify(wrong)).toMatch(new RegExp(Object.keys(wrong)[0] as string));
      expect(message).not.toContain("s3cr3t-value");
    }
  });

  it("seals secrets with SECRETS_KEY, else JWT_SECRET, and opens with SECRETS_KEY_PREVIOUS after a rotation", async () => {
    const root = await tempDir();
    const jwt = "j".repeat(40);
    expect(readEnv({ INIT_CWD: root, JWT_SECRET: jwt }).config.secrets).toEqual({
      key: jwt,
      previousKey: null,
    });
    const embedded = readEnv({ INIT_CWD: root }).config;
    expect(embedded.secrets).toEqual({ key: embedded.jwtSecret, previousKey: null });
    expect(
      readEnv({ INIT_CWD: root, SECRETS_KEY: "s".repeat(32), SECRETS_KEY_PREVIOUS: jwt }).config.secrets,
    ).toEqual({ key: "s".repeat(32), previousKey: jwt });
    expect(() => readEnv({ INIT_CWD: root, SECRETS_KEY: "short" })).toThrow(
      /SECRETS_KEY must be at least 32/,
    );
  });

  it("requires JWT_SECRET with DATABASE_URL", () => {
    expect(() => readEnv({ DATABASE_URL: "postgres://root@127.0.0.1/x" })).toThrow(/JWT_SECRET/);
  });
});

describe("answersChecked", () => {
  it("checks answers against their schemas with ALLOT_CHECK_ANSWERS=1 only", () => {
    expect(answersChecked({ ALLOT_CHECK_ANSWERS: "1" })).toBe(true);
    for (const value of [undefined, "", "0", "true"])
      expect(answersChecked({ ALLOT_CHECK_ANSWERS: value })).toBe(false);
  });

  it("is on in the suite (vitest.config.ts sets it)", () => {
    expect(answersChecked()).toBe(true);
  });
});
