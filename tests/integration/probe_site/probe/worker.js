// A worker of the sandbox probe (?port=TCP&udp=UDP&who=NAME) tries every channel a worker has, each to a loopback
// port; with &nest=1 it also starts a nested worker and a blob: worker. Hosts are <who>.localhost (loopback,
// named so the blocked log tells the workers apart); one WebSocket goes to 127.0.0.1 itself, the plain case.
const q = new URLSearchParams(location.search);
const who = q.get('who'), port = q.get('port'), udp = q.get('udp');
const T = `http://${who}.localhost:${port}`;
const quietly = (fn) => { try { fn(); } catch (e) {} };  // importScripts throws at once; the rest fail later
quietly(() => fetch(`${T}/worker-fetch`).catch(() => {}));
quietly(() => { const x = new XMLHttpRequest(); x.open('GET', `${T}/worker-xhr`); x.send(); });
quietly(() => { const e = new EventSource(`${T}/worker-es`); e.onerror = () => e.close(); });
quietly(() => importScripts(`${T}/worker-import`));
quietly(() => { new WebSocket(`ws://${who}.localhost:${port}/worker-ws`).onerror = () => {}; });
quietly(() => { new WebSocket(`ws://127.0.0.1:${port}/worker-ws`).onerror = () => {}; });
quietly(() => {
  const t = new WebTransport(`https://127.0.0.1:${udp}/worker-wt-${who}`);
  t.ready.catch(() => {});
  t.closed.catch(() => {});
});
if (q.get('nest')) {
  new Worker(`worker.js?port=${port}&udp=${udp}&who=nested`);
  const blob = `fetch('http://blob.localhost:${port}/worker-fetch').catch(() => {});
    new WebSocket('ws://blob.localhost:${port}/worker-ws').onerror = () => {};`;
  new Worker(URL.createObjectURL(new Blob([blob], {type: 'text/javascript'})));
}
