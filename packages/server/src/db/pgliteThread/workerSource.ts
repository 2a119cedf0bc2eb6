/**
 * The embedded database thread's code, run with `eval` so it needs no loader whether the service runs from
 * TypeScript sources (tsx, vitest) or from the build. It opens PGlite and answers one message per call, in the order the calls came; a
 * notification on a LISTEN channel is posted as it comes.
 */
export const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
let db;
const listeners = new Map();

function fields(error) {
  const out = { name: error && error.name, message: error && error.message ? error.message : String(error) };
  if (error && typeof error === "object") {
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ["string", "number", "boolean"].includes(typeof value)) out[key] = value;
    }
  }
  return out;
}

async function run(m) {
  switch (m.op) {
    case "open": {
      const { PGlite } = require(workerData.pglitePath);
      db = await PGlite.create(m.dataDir, { parsers: { [workerData.int8Oid]: (value) => Number(value) } });
      if (m.schema) await db.exec("CREATE SCHEMA IF NOT EXISTS " + m.schema + "; SET search_path TO " + m.schema);
      return null;
    }
    case "query": {
      const result = await db.query(m.sql, m.params);
      return { rows: result.rows, affectedRows: result.affectedRows };
    }
    case "listen": {
      const stop = await db.listen(m.channel, (payload) => parentPort.postMessage({ notify: m.listenId, payload }));
      listeners.set(m.listenId, stop);
      return null;
    }
    case "unlisten": {
      const stop = listeners.get(m.listenId);
      listeners.delete(m.listenId);
      if (stop && !db.closed) await stop();
      return null;
    }
    case "close": {
      if (db && !db.closed) await db.close();
      return null;
    }
  }
  throw new Error("unknown embedded database call " + m.op);
}

// One call at a time, in the order sent: the service pipelines statements and relies on that order.
let queue = Promise.resolve();
parentPort.on("message", (m) => {
  queue = queue.then(() => run(m)).then(
    (result) => parentPort.postMessage({ id: m.id, result }),
    (error) => parentPort.postMessage({ id: m.id, error: fields(error) }),
  );
});
`;
