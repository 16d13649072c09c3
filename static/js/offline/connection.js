/* While the device is offline: a line at the top of a page opened offline saying what still
   works, and a form that needs the server (a POST: a new room, a quick match, the language switch, a log-in) is not
   sent into the void but answered at once with a sentence saying it needs a connection. Forms a
   page script sends itself (it cancels the submit) are that script's to answer. htmx requests that
   fail for want of a network get the same sentence. */

/** Show `text` in a line of the base layout's `.messages` look, identified by `role`; replaces an
    earlier line of the same role. A `floating` line stays in view at the bottom of the window (an
    answer to a button the visitor just pressed, wherever the page is scrolled); the other goes
    at the top of the page. Returns the line. */
export function showLine(doc, role, text, { live = "status", floating = false } = {}) {
  let list = doc.querySelector(`[data-offline-line="${role}"]`);
  if (!list) {
    list = doc.createElement("ul");
    list.className = "messages";
    list.dataset.offlineLine = role;
    list.setAttribute("role", live);
    list.append(doc.createElement("li"));
    if (floating) {
      Object.assign(list.style, { position: "fixed", left: "12px", right: "12px", bottom: "12px", margin: "0 auto",
        maxWidth: "640px", zIndex: "20" });
      list.firstElementChild.style.boxShadow = "0 2px 8px rgba(0, 0, 0, .25)";
      doc.body.append(list);
    } else {
      (doc.querySelector("main") || doc.body).prepend(list);
    }
  }
  list.firstElementChild.textContent = text;
  list.hidden = false;
  return list;
}

export function hideLine(doc, role) {
  const list = doc.querySelector(`[data-offline-line="${role}"]`);
  if (list) list.hidden = true;
}

/** How long the answer to a refused form stays on the screen, ms. */
const REFUSED_SHOWN_MS = 8000;

/** Install the offline line and the refusal of server forms. `texts`: {offline, refused}. */
export function watchConnection(win, texts) {
  const doc = win.document;
  const onOfflinePage = doc.querySelector("[data-offline-page]") !== null;
  let hideLater = null;
  const refuse = () => {
    showLine(doc, "refused", texts.refused, { live: "alert", floating: true });
    win.clearTimeout(hideLater);
    hideLater = win.setTimeout(() => hideLine(doc, "refused"), REFUSED_SHOWN_MS);
  };
  // A page opened offline (from the worker's copy) says what works; a page whose connection drops
  // later says nothing here (a room has its own connection state), but refuses its server forms.
  if (!win.navigator.onLine && !onOfflinePage) showLine(doc, "status", texts.offline);
  win.addEventListener("online", () => {
    hideLine(doc, "status");
    hideLine(doc, "refused");
  });
  // Bubbling phase: a page script that sends the form itself has cancelled the submit by now.
  doc.addEventListener("submit", (event) => {
    const form = event.target;
    const method = (event.submitter?.getAttribute("formmethod") || form.getAttribute("method") || "get").toLowerCase();
    if (event.defaultPrevented || method !== "post" || win.navigator.onLine) return;
    event.preventDefault();
    refuse();
  });
  // A request the visitor made; not a part that polls by itself (the home page's counts: they say
  // on their own that they are not live).
  doc.addEventListener("htmx:sendError", (event) => {
    if (!String(event.target?.getAttribute?.("hx-trigger") || "").includes("every")) refuse();
  });
}
