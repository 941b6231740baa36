// The page: loads the crate (wasm-bindgen's `web` output in ./pkg), decodes a record the way a
// browser host would after fetching it, and reassembles channel frames that arrived shuffled.
// It writes its findings as JSON into #result and sets data-status to "done" or "failed".
import init, { ChannelEnd, decode_record } from "./pkg/agent_interface_browser.js";

const result = document.getElementById("result");

async function run() {
  await init();
  const encoder = new TextEncoder();

  // A record as a TypeScript host stores it, and one with a broken member.
  const record = {
    schemaVersion: 1,
    record: { id: "sess-1", cwd: "/work/app", createdAt: "2026-12-03T10:00:00Z",
      updatedAt: "2026-12-03T10:05:00Z", messages: [], name: "browser demo" },
  };
  const valid = JSON.parse(decode_record(encoder.encode(JSON.stringify(record)), "sess-1"));
  const broken = structuredClone(record);
  broken.record.createdAt = 7;
  const corrupt = JSON.parse(decode_record(encoder.encode(JSON.stringify(broken)), "sess-1"));

  // Frames sent in order, delivered in reverse: nothing comes out until the first one arrives.
  const sender = new ChannelEnd("chat", "text");
  const receiver = new ChannelEnd("chat", "text");
  const words = ["frames", "come", "back", "in", "order"];
  const frames = words.map((word) => sender.send(word));
  const deliveries = [];
  for (const frame of frames.reverse()) {
    deliveries.push(JSON.parse(receiver.receive(frame, Date.now())));
  }
  // Bad inputs throw with the crate's words and leave the channel as it was.
  const thrown = (action) => {
    try {
      action();
      return null;
    } catch (error) {
      return String(error.message ?? error);
    }
  };
  const refused = thrown(() => receiver.receive(new Uint8Array([1, 2, 3]), Date.now()));
  const duplicate = thrown(() => receiver.receive(frames[0], Date.now()));
  const other = new ChannelEnd("other", "text");
  const unknownChannel = thrown(() => receiver.receive(other.send("lost"), Date.now()));
  const badName = thrown(() => new ChannelEnd("", "text"));
  const after = JSON.parse(receiver.receive(sender.send("still open"), Date.now()));

  return {
    valid: { status: valid.status, id: valid.record?.id, name: valid.record?.name },
    corrupt: { status: corrupt.status, paths: (corrupt.issues ?? []).map((issue) => issue.path) },
    deliveries,
    held: receiver.held(),
    refused,
    duplicate,
    unknownChannel,
    badName,
    after,
  };
}

run().then(
  (findings) => {
    result.textContent = JSON.stringify(findings);
    result.dataset.status = "done";
  },
  (error) => {
    result.textContent = String(error?.stack ?? error);
    result.dataset.status = "failed";
  },
);
