// The home page's counts of who is here (lobby/templates/lobby/counts.html): pushed over the live
// socket within a second of a change (featured.js hands them over as a `live-counts` event), and
// asked for by htmx every 5 s while the browser is online (a socket that is away, and the
// visitor's presence). While the browser is offline, or when the last poll got no answer, the
// numbers shown are old: the counts are marked (`data-stale`) and the hint beside them says they
// are not live. Fresh counts (a push, or the next poll's swap) put that away; back online, they
// are asked for at once. One job: keep the numbers live, and say when they are not.
const hint = document.querySelector('[data-testid="counts-stale"]');
if (hint) {
  const counts = () => document.getElementById("live-counts");
  document.addEventListener("live-counts", (e) => {
    const box = counts();
    const made = document.createElement("template");
    made.innerHTML = String(e.detail).trim();
    const fresh = made.content.firstElementChild;
    if (!box || !fresh || fresh.id !== "live-counts") return;
    box.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh); // its polling goes on
    if (navigator.onLine !== false) hint.hidden = true;
  });
  const stale = (on) => {
    const box = counts();
    if (box && on) box.dataset.stale = "1";
    else if (box) delete box.dataset.stale;
    hint.hidden = !on;
  };
  if (navigator.onLine === false) stale(true);
  addEventListener("offline", () => stale(true));
  addEventListener("online", () => {
    const box = counts();
    if (box && window.htmx) window.htmx.trigger(box, "live-refresh");
  });
  for (const type of ["htmx:sendError", "htmx:responseError"]) {
    document.addEventListener(type, (e) => { if (e.target && e.target.id === "live-counts") stale(true); });
  }
  // A swap brings the server's counts (without the mark): live again.
  document.addEventListener("htmx:afterSettle", () => {
    const box = counts();
    if (box && !box.dataset.stale && navigator.onLine !== false) hint.hidden = true;
  });
}
