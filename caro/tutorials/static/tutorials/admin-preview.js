// Live preview for the guide editor: posts the body to the preview endpoint while typing.
(function () {
  "use strict";
  function start() {
    var box = document.getElementById("guide-preview");
    var body = document.getElementById("id_body");
    if (!box || !body) return;
    var form = body.form;
    var timer = null, pending = null, sent = "";
    function field(name) { var el = form.elements[name]; return el ? el.value : ""; }
    function refresh() {
      var payload = new FormData();
      payload.append("body", body.value);
      payload.append("language", field("language"));
      payload.append("key", field("key"));
      payload.append("slug", field("slug"));
      var stamp = body.value + "\u0000" + field("language");
      if (stamp === sent) return;
      sent = stamp;
      if (pending) pending.abort();
      pending = new AbortController();
      fetch(box.dataset.url, {
        method: "POST", body: payload, signal: pending.signal, credentials: "same-origin",
        headers: {"X-CSRFToken": field("csrfmiddlewaretoken")}
      }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.text();
      }).then(function (html) { box.innerHTML = html; })
        .catch(function (e) {
          if (e.name === "AbortError") return;
          box.textContent = box.dataset.unavailable + " (" + e.message + ")";
        });
    }
    function later() { clearTimeout(timer); timer = setTimeout(refresh, 350); }
    body.addEventListener("input", later);
    if (form.elements.language) form.elements.language.addEventListener("change", later);
    refresh();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
