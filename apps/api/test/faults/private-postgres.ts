import { execFile } from "node:child_process";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A PostgreSQL server of the test's own (initdb into a temporary folder, on a free port), so a
 * test can stop and restart it for real without disturbing the machine's server that every other
 * test shares. Uses the binaries of the installed PostgreSQL; as root, runs them as `postgres`.
 */
export async function startPrivatePostgres() {
  const versions = await readdir("/usr/lib/postgresql");
  const bin = join("/usr/lib/postgresql", versions.sort().at(-1) as string, "bin");
  const dataDir = await mkdtemp(join(tmpdir(), "allot-private-pg-"));
  const asOwner = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  if (asOwner.length) await chown(dataDir, ...(await postgresIds()));
  const tool = async (name: string, args: string[]) => {
    const [command, ...rest] = [...asOwner, join(bin, name), ...args];
    await run(command as string, rest, { timeout: 60_000 });
  };
  const port = await freePort();
  const pgData = join(dataDir, "data");

  await tool("initdb", ["-D", pgData, "-A", "trust", "-U", "root", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const pgCtl = (...args: string[]) =>
    tool("pg_ctl", ["-D", pgData, "-l", join(dataDir, "server.log"), "-o", options, "-w", ...args]);
  await pgCtl("start");

  return {
    url: `postgres://root@127.0.0.1:${port}/postgres`,
    /** A fast shutdown: open connections are terminated, new ones refused until `start`. */
    stop: () => pgCtl("-m", "fast", "stop"),
    start: () => pgCtl("start"),
    async dispose() {
      await pgCtl("-m", "immediate", "stop").catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgresIds(): Promise<[number, number]> {
  const { stdout } = await run("id", ["-u", "postgres"]);
  const { stdout: group } = await run("id", ["-g", "postgres"]);
  return [Number(stdout.trim()), Number(group.trim())];
}

function freePort() {
  return new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
