// A worker of the sandbox probe: a fetch and a WebSocket to a loopback port, and (?nest=1) a nested worker.
const q = new URLSearchParams(location.search);
const target = `${q.get('who')}.localhost:${q.get('port')}`;
fetch(`http://${target}/worker-fetch`).catch(() => {});
try { new WebSocket(`ws://${target}/worker-ws`).onerror = () => {}; } catch (e) {}
if (q.get('nest')) new Worker(`worker.js?port=${q.get('port')}&who=nested`);
