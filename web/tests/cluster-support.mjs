// A cluster for the browser tests, all real processes on loopback, as
// tests/server/cluster.cpp makes one for the C++ end-to-end tests: a PostgreSQL
// (the one whose socket folder $SPARTS_TEST_POSTGRES names, else one started
// here by tests/support/postgres.sh in a temporary folder) with a fresh
// database, N sparts-server nodes on it (--node-id n0, n1, ... on ports chosen
// up front), and HAProxy in front of them with the configuration
// haproxy_config() writes: /ws?table=ID goes to the node the table id hashes to
// among those whose /readyz says 200, anything else round robin; the nodes hear
// of each client through the PROXY protocol v2.
//
// Everything started here is stopped by stop() (call it in an `after` hook), and
// killed if the test process exits without it.

import { spawn, spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync, readdirSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repo, serverBinary } from "./support.mjs";

const postgresScript = join(repo, "tests/support/postgres.sh");

function onPath(program) {
  return spawnSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" }).status === 0;
}

/**
 * Why a cluster cannot be started here (haproxy, psql or a PostgreSQL server
 * missing), or null when it can.
 */
export function clusterMissing() {
  if (process.env.SPARTS_WEB_URL) return "SPARTS_WEB_URL names a running server: this test starts a cluster of its own";
  if (!onPath("haproxy")) return "haproxy is not installed (apt-get install haproxy; scripts/install-deps.sh does)";
  if (!onPath("psql")) return "psql is not installed (apt-get install postgresql-15; scripts/install-deps.sh does)";
  const shared = process.env.SPARTS_TEST_POSTGRES;
  if (shared) {
    if (!existsSync(shared)) return `SPARTS_TEST_POSTGRES names ${shared}, which does not exist`;
    return null;
  }
  const bin = process.env.SPARTS_PG_BIN ?? latestPgBin();
  if (!bin || !existsSync(join(bin, "pg_ctl"))) return "no PostgreSQL server (pg_ctl) is installed (apt-get install postgresql-15; scripts/install-deps.sh does)";
  return null;
}

function latestPgBin() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin/pg_ctl")));
  versions.sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(root, versions.at(-1), "bin") : null;
}

/** A free TCP port on 127.0.0.1 (free when asked: the caller binds it soon after). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

/** Several distinct free ports. */
async function freePorts(n) {
  const ports = new Set();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** HAProxy's configuration, as tests/server/cluster.cpp's haproxy_config() writes it. */
export function haproxyConfig(port, nodePorts) {
  let c =
    "global\n" +
    "  maxconn 4000\n" +
    "defaults\n" +
    "  mode http\n" +
    "  timeout connect 1s\n" +
    "  timeout check 500ms\n" +
    "  timeout client 120s\n" +
    "  timeout server 120s\n" +
    "  timeout tunnel 1h\n" +
    "  retries 3\n" +
    "  option redispatch 1\n" +
    "frontend clients\n" +
    `  bind 127.0.0.1:${port}\n` +
    "  default_backend nodes\n" +
    "backend nodes\n" +
    "  balance url_param table\n" +
    "  hash-type consistent\n" +
    "  option httpchk GET /readyz\n" +
    "  http-check expect status 200\n" +
    "  default-server inter 250ms fall 2 rise 2 send-proxy-v2 check-send-proxy\n";
  nodePorts.forEach((p, i) => (c += `  server n${i} 127.0.0.1:${p} check\n`));
  return c;
}

// The PROXY protocol v2 header of a LOCAL connection (as HAProxy's own health checks send):
// a node with --proxy-protocol v2 wants it first from 127.0.0.1.
const PROXY_V2_LOCAL = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a, 0x20, 0x00, 0x00, 0x00]);

/** GET `path` from 127.0.0.1:port over a raw socket (optionally after a PROXY v2 LOCAL header); resolves with the status (0: no answer). */
export function probe(port, path, { proxyHeader = false, timeoutMs = 1000 } = {}) {
  return new Promise((resolveProbe) => {
    const socket = connect({ host: "127.0.0.1", port });
    let got = "";
    const done = (status) => {
      socket.destroy();
      resolveProbe(status);
    };
    socket.setTimeout(timeoutMs, () => done(0));
    socket.on("error", () => done(0));
    socket.on("connect", () => {
      if (proxyHeader) socket.write(PROXY_V2_LOCAL);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    socket.on("data", (d) => {
      got += d;
      const m = got.match(/^HTTP\/1\.[01] (\d{3})/);
      if (m) done(Number(m[1]));
    });
    socket.on("end", () => done(0));
  });
}

async function waitFor(check, what, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

// What stop() would do, done at once if the process exits or is stopped by a signal
// without it (a test that threw past its hooks, CTest's timeout): children killed, the
// PostgreSQL started here stopped.
const living = new Set();
const lastWords = new Set();
function cleanUpNow() {
  for (const child of living) {
    try {
      child.kill("SIGKILL");
    } catch {
      // gone
    }
  }
  for (const f of [...lastWords].reverse()) {
    try {
      f();
    } catch {
      // going anyway
    }
  }
  lastWords.clear();
}
process.on("exit", cleanUpNow);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(signal, () => {
    cleanUpNow();
    process.kill(process.pid, signal);
  });
}

function track(child) {
  living.add(child);
  child.on("exit", () => living.delete(child));
  return child;
}

/** A PostgreSQL to make databases in: {dir, url(db), psql(db, sql), stop()}. */
async function startPostgres() {
  let dir = process.env.SPARTS_TEST_POSTGRES;
  let own = false;
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), "sparts-web-pg-"));
    own = true;
    try {
      execFileSync(postgresScript, ["start", dir], { stdio: ["ignore", "pipe", "pipe"], timeout: 90000 });
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`cannot start a PostgreSQL with ${postgresScript}: ${err.stderr ?? err.message}`);
    }
  }
  const url = (db) => `postgresql://sparts@/${db}?host=${dir}`;
  const psql = (db, sql) =>
    execFileSync("psql", [url(db), "-v", "ON_ERROR_STOP=1", "-qAtX", "-c", sql], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 20000 }).trim();
  const stop = () => {
    lastWords.delete(stop);
    if (!own) return;
    spawnSync(postgresScript, ["stop", dir], { stdio: "ignore", timeout: 60000 });
    rmSync(dir, { recursive: true, force: true });
  };
  lastWords.add(stop);
  return { dir, url, psql, stop };
}

/** One sparts-server node: {id, port, child, output(), running()}. */
function startNode(i, port, databaseUrl, flags) {
  const id = `n${i}`;
  const args = [
    "--database", databaseUrl,
    "--node-id", id,
    "--port", String(port),
    "--lease-ms", "3000",
    "--trusted-proxies", "127.0.0.1",
    "--proxy-protocol", "v2",
    "--drain-ms", "600",
    // every client comes through HAProxy, from 127.0.0.1 as far as limits go: lift them
    "--messages-per-second", "100000",
    "--connections-per-address", "100000",
    "--players-per-address-per-minute", "100000",
    "--tables-per-address", "100000",
    "--archive-reads-per-minute", "100000",
    "--log-level", "info",
    ...flags,
  ];
  const child = track(spawn(serverBinary(), args, { stdio: ["ignore", "pipe", "pipe"] }));
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise((r) => child.on("exit", (code, signal) => r({ code, signal })));
  return {
    id,
    port,
    child,
    exited,
    output: () => out,
    running: () => child.exitCode === null && child.signalCode === null,
  };
}

/**
 * Starts a cluster of `nodes` nodes (flags of their own added by `nodeFlags`) behind
 * HAProxy; resolves once every node answers /healthz and /readyz and HAProxy accepts.
 * Returns {url, port, nodes, query(sql), holder(table), sigterm(i), logs(), stop()}.
 */
export async function startCluster({ nodes = 2, nodeFlags = [] } = {}) {
  const cluster = { nodes: [], url: null, port: 0 };
  let pg = null;
  let proxy = null;
  let scratch = null;
  let said = ""; // HAProxy's output
  const database = `web_cluster_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  let created = false;
  const dropDatabase = () => {
    lastWords.delete(dropDatabase);
    if (created) pg.psql("postgres", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    created = false;
  };
  const removeScratch = () => {
    lastWords.delete(removeScratch);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = null;
  };

  cluster.logs = () => {
    let s = "";
    for (const n of cluster.nodes) s += `--- node ${n.id} (port ${n.port})\n${n.output()}\n`;
    if (said) s += `--- haproxy\n${said}\n`;
    return s;
  };

  cluster.stop = async () => {
    if (proxy && proxy.exitCode === null && proxy.signalCode === null) {
      const gone = new Promise((r) => proxy.on("exit", r));
      proxy.kill("SIGKILL");
      await gone;
    }
    await Promise.all(
      cluster.nodes.map(async (n) => {
        if (!n.running()) return;
        n.child.kill("SIGKILL");
        await n.exited;
      }),
    );
    if (pg) {
      try {
        dropDatabase();
      } catch {
        // the cluster is going anyway
      }
      pg.stop();
    }
    removeScratch();
  };

  try {
    pg = await startPostgres();
    pg.psql("postgres", `CREATE DATABASE ${database}`);
    created = true;
    lastWords.add(dropDatabase);
    cluster.query = (sql) => pg.psql(database, sql);
    /** The node holding `table` ("n0", "n1", or "" when none). */
    cluster.holder = (table) => cluster.query(`SELECT node FROM leases WHERE table_id = '${table.replace(/'/g, "''")}'`);

    const ports = await freePorts(nodes + 1);
    const nodePorts = ports.slice(0, nodes);
    cluster.port = ports[nodes];
    cluster.url = `http://127.0.0.1:${cluster.port}`;
    // One node after the other, as tests/server/cluster.cpp does: the first one makes the
    // database's schema (two nodes starting together on an empty database race to make it).
    for (let i = 0; i < nodes; i++) {
      const n = startNode(i, nodePorts[i], pg.url(database), nodeFlags);
      cluster.nodes.push(n);
      await waitFor(
        async () => {
          if (!n.running()) throw new Error(`node ${n.id} exited at start:\n${n.output()}`);
          return (await probe(n.port, "/healthz", { proxyHeader: true })) === 200 && (await probe(n.port, "/readyz", { proxyHeader: true })) === 200;
        },
        `node ${n.id}'s /healthz and /readyz on port ${n.port}`,
        30000,
      );
    }

    scratch = mkdtempSync(join(tmpdir(), "sparts-web-haproxy-"));
    lastWords.add(removeScratch);
    const config = join(scratch, "haproxy.cfg");
    writeFileSync(config, haproxyConfig(cluster.port, nodePorts));
    proxy = track(spawn("haproxy", ["-db", "-f", config], { stdio: ["ignore", "pipe", "pipe"] }));
    proxy.stdout.on("data", (d) => (said += d));
    proxy.stderr.on("data", (d) => (said += d));
    await waitFor(
      async () => {
        if (proxy.exitCode !== null || proxy.signalCode !== null) throw new Error(`haproxy exited at start: ${said}`);
        return (await probe(cluster.port, "/healthz")) === 200;
      },
      `HAProxy to accept on port ${cluster.port}`,
      15000,
    );
    // HAProxy's first health checks (every 250 ms) of the nodes: a moment for them.
    await new Promise((r) => setTimeout(r, 500));
  } catch (err) {
    const logs = cluster.logs();
    await cluster.stop();
    err.message += `\n${logs}`;
    throw err;
  }

  /** Sends node i SIGTERM (it drains, hands its tables over, and exits). */
  cluster.sigterm = (i) => cluster.nodes[i].child.kill("SIGTERM");
  return cluster;
}
