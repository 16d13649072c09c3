/* While the device is offline: a line at the top of the page saying what still works, and a form
   that needs the server (a POST: a new room, a quick match, the language switch, a log-in) is not
   sent into the void but answered at once with a sentence saying it needs a connection. Forms a
   page script sends itself (it cancels the submit) are that script's to answer. htmx requests that
   fail for want of a network get the same sentence. */

/** Show `text` in the page's message list (the base layout's `.messages` look), in a line of its
    own identified by `role`; replaces an earlier line of the same role. Returns the line. */
export function showLine(doc, role, text, live = "status") {
  let list = doc.querySelector(`[data-offline-line="${role}"]`);
  if (!list) {
    list = doc.createElement("ul");
    list.className = "messages";
    list.dataset.offlineLine = role;
    list.setAttribute("role", live);
    list.append(doc.createElement("li"));
    (doc.querySelector("main") || doc.body).prepend(list);
  }
  list.firstElementChild.textContent = text;
  list.hidden = false;
  return list;
}

export function hideLine(doc, role) {
  const list = doc.querySelector(`[data-offline-line="${role}"]`);
  if (list) list.hidden = true;
}

/** Install the offline line and the refusal of server forms. `texts`: {offline, refused}. */
export function watchConnection(win, texts) {
  const doc = win.document;
  const onOfflinePage = doc.querySelector("[data-offline-page]") !== null;
  const update = () => {
    if (!win.navigator.onLine && !onOfflinePage) showLine(doc, "status", texts.offline);
    else {
      hideLine(doc, "status");
      hideLine(doc, "refused");
    }
  };
  win.addEventListener("online", update);
  win.addEventListener("offline", update);
  update();
  // Bubbling phase: a page script that sends the form itself has cancelled the submit by now.
  doc.addEventListener("submit", (event) => {
    const form = event.target;
    const method = (event.submitter?.getAttribute("formmethod") || form.getAttribute("method") || "get").toLowerCase();
    if (event.defaultPrevented || method !== "post" || win.navigator.onLine) return;
    event.preventDefault();
    showLine(doc, "refused", texts.refused, "alert");
  });
  doc.addEventListener("htmx:sendError", () => showLine(doc, "refused", texts.refused, "alert"));
}
