// The matchmaking page (ranking/templates/ranking/match.html): one seek socket (docs/protocol.md,
// "Seek websocket"). Sends `seek` / `cancel` / `ping`; goes to the game on `paired`.
(() => {
  "use strict";
  const root = document.querySelector('[data-role="match"]');
  if (!root) return;
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  const PING_MS = 10000;
  let socket = null, pinger = null, ticker = null, retry = 500;
  let joined = false;          // this socket has sent `seek` (the server counts it as one of the seek's sockets)
  let seeking = null;          // {mode, choice} while this page wants to be in the queue
  let since = null;            // ms (local clock) when the wait started
  let confirmed = false;       // the server answered this page's seek with `status` `waiting`
  let pending = root.dataset.go === "1" ? {mode: root.dataset.mode, choice: root.dataset.choice} : null;
  let cancelling = false;      // Cancel was pressed before the socket's hello was read: sent after it
  let greeted = false;         // this socket's hello (its first `status`) was read

  const change = $("change");
  if (change) change.addEventListener("click", (e) => { e.preventDefault(); $("choice-form").hidden = !$("choice-form").hidden; });

  function showCounts(counts) {
    for (const el of root.querySelectorAll('[data-role="count"]')) {
      const mode = el.dataset.mode || "quick";
      const n = ((counts || {})[mode] || {})[el.dataset.key] || 0;
      el.textContent = n ? interpolate(ngettext("%s player waiting", "%s players waiting", n), [n]) : "";
    }
  }

  // The waiting counts stay current for every visitor, signed in or not (the seek socket's
  // `waiting` frames come only while it is open): the site's counts, polled (lobby/views.py).
  const COUNTS_MS = 5000;
  const pollCounts = () => {
    if (document.visibilityState === "hidden") return;
    fetch(root.dataset.countsUrl, {headers: {Accept: "application/json"}})
      .then((r) => (r.ok ? r.json() : null))
      .then((data) => { if (data) { showCounts(data.waiting); root.dataset.countsAt = String(Date.now()); } })
      .catch(() => {});
  };
  if (root.dataset.countsUrl) setInterval(pollCounts, COUNTS_MS);

  if (root.dataset.signedIn !== "1") return;  // the forms post and come back signed in, with go=1

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (frame.type === "seek") joined = true;
    socket.send(JSON.stringify(frame));
  }

  // The words of a choice on this page: the quick rules line, or the ranked category's button
  // ("" when the page does not show that choice).
  function lineOf(mode, choice) {
    if (mode === "quick") {  // this page's rules line, if it is the seek's choice
      const rules = root.querySelector('[data-testid="quick-rules"]');
      return rules && $("quick-key").value === choice ? rules.textContent : "";
    }
    const button = root.querySelector(`[data-role="ranked"][data-category="${choice}"]`);
    return button ? button.textContent : "";
  }

  function seek(mode, choice) {
    seeking = {mode, choice};
    confirmed = false;
    showError("");
    showWaiting({mode, choice});  // at once: no second click on a seek button
    if (socket && socket.readyState === WebSocket.OPEN) send({type: "seek", mode, choice});
    else pending = seeking;
  }

  $("quick-form").addEventListener("submit", (e) => { e.preventDefault(); seek("quick", $("quick-key").value); });
  for (const button of root.querySelectorAll('[data-role="ranked"]')) {
    button.form.addEventListener("submit", (e) => { e.preventDefault(); seek("ranked", button.dataset.category); });
  }
  $("cancel").addEventListener("click", () => {
    seeking = null; pending = null;
    // Before the hello is read (just after a reload) the hello still on its way says "waiting",
    // and this page would join the seek again: the cancel waits for the hello and follows it.
    if (greeted) send({type: "cancel"});
    else cancelling = true;
    showWaiting(null);
  });

  function fmt(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  // While a seek waits, the page shows only the waiting box (with its Cancel) in place of the
  // quick and ranked choices: no second seek can be asked for from this page until it is cancelled.
  function showWaiting(status) {
    const panel = $("seeking");
    clearInterval(ticker);
    for (const section of root.querySelectorAll('[data-role="choices"]')) section.hidden = Boolean(status);
    root.dataset.seeking = status ? "1" : "";
    if (!status) { panel.hidden = true; $("computer-offer").hidden = true; $("seeking-note").hidden = true; since = null; return; }
    panel.hidden = false;
    since = since || Date.now();
    const tick = () => {
      const waited = Date.now() - since;
      $("elapsed").textContent = fmt(waited);
    };
    tick();
    ticker = setInterval(tick, 500);
    const label = status.mode === "ranked" ? gettext("Ranked match") : gettext("Quick match");
    const line = status.line || lineOf(status.mode, status.choice);
    $("seeking-line").textContent = line ? `${label} · ${line}` : label;
    if (status.computer_offer) $("computer-offer").hidden = false;
  }

  function showError(text, link) {
    const box = $("error");
    box.textContent = text;
    if (link) {
      const a = document.createElement("a");
      a.href = link; a.textContent = " " + gettext("Sign up");
      box.appendChild(a);
    }
    box.hidden = !text;
  }

  function onFrame(f) {
    if (f.type === "status") { root.dataset.connected = "1"; greeted = true; }  // the server's hello was read (tests wait for it)
    switch (f.type) {
      case "status":
        if (f.status === "paired") { location.href = f.url; return; }
        if (cancelling) {  // the player cancelled before this socket's hello was read
          cancelling = false;
          if (f.status === "waiting") send({type: "cancel"});
          seeking = null; pending = null; showWaiting(null);
          break;
        }
        if (f.status === "waiting") {
          if (pending && (pending.mode !== f.mode || pending.choice !== f.choice)) {
            // Asked for other rules before this socket was open: that seek replaces the waiting one.
            const p = pending; pending = null; seek(p.mode, p.choice);
            break;
          }
          pending = null;
          seeking = {mode: f.mode, choice: f.choice};
          confirmed = true;
          // Waiting already (another tab, or back after a no-show): this socket joins the same seek,
          // which keeps its place, so the seek counts this page as alive.
          if (!joined) send({type: "seek", ...seeking});
          if (!since) since = Date.now() - Math.max(0, Date.now() - f.since_ms);
          showWaiting(f);
        } else {
          if (pending) { const p = pending; pending = null; seek(p.mode, p.choice); }
          else if (seeking) send({type: "seek", ...seeking});  // reconnected: back in (same place)
          else showWaiting(null);
        }
        break;
      case "paired": location.href = f.url; break;
      case "cancelled": seeking = null; joined = false; showWaiting(null); break;
      case "replaced":  // another tab asked for other rules: the user's one seek is now that one
        seeking = {mode: f.mode, choice: f.choice};
        if (f.mode === "quick") {  // this page's rules become the new ones, so its button asks for them too
          $("quick-key").value = f.choice;
          const rules = root.querySelector('[data-testid="quick-rules"]');
          if (rules && f.line) rules.textContent = f.line;
        }
        showWaiting({mode: f.mode, line: f.line});
        $("seeking-note").textContent = f.message;
        $("seeking-note").hidden = false;
        break;
      case "requeued": if (seeking) send({type: "seek", ...seeking}); break;
      case "computer_offer": $("computer-offer").hidden = false; break;
      case "waiting": showCounts(f.counts); break;
      case "error":
        showError(f.message, f.signup_url);
        // A refused seek (or one the server never confirmed) leaves the waiting box: the choices come back.
        if (["guests_not_ranked", "bad_choice", "bad_category", "not_signed_in", "not_seeking", "seek_barred"].includes(f.code)
            || (seeking && !confirmed)) { seeking = null; pending = null; showWaiting(null); }
        break;
      case "pong": break;
    }
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${proto}://${location.host}/ws/seek/?lang=${encodeURIComponent(document.documentElement.lang)}`);
    joined = false;
    greeted = false;
    socket.addEventListener("open", () => {
      retry = 500;
      clearInterval(pinger);
      pinger = setInterval(() => send({type: "ping", t: Date.now()}), PING_MS);
    });
    socket.addEventListener("message", (e) => { try { onFrame(JSON.parse(e.data)); } catch (err) { console.error(err); } });
    socket.addEventListener("close", (e) => {
      clearInterval(pinger);
      root.dataset.connected = "";
      if (e.code === 4401 || e.code === 4429) return;  // no player / too many pages: reconnecting would not help
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }
  if (pending) {  // came back from /match/start (go=1): waiting at once
    seek(pending.mode, pending.choice);
    // go=1 is used up: a reload after a Cancel must not start a new search (a reload while the
    // search waits still shows it: the socket's status says so)
    const here = new URL(location.href);
    here.searchParams.delete("go");
    history.replaceState(history.state, "", here.pathname + here.search + here.hash);
  }
  connect();
})();
