/* Loaded by every page (the base layout's {% offline_head %}): the service worker, the offline
   line and form refusal, and the records queue's sending (on load and when the network is back). */
import { registerWorker } from "./register.js";
import { watchConnection } from "./connection.js";
import { configure, cookieValue, start } from "../records-queue.js";

const boot = document.querySelector("script[data-offline-boot]");
const data = boot ? boot.dataset : {};
// Who visits: the CSRF cookie (a log-in rotates it) and the user's id (a log-out, a new guest).
const visitor = `${cookieValue(document.cookie, "csrftoken")}|${data.visitor || ""}`;
registerWorker(data.worker, data.visitorLanguage, visitor).catch(() => {
  // no worker (a private window that refuses storage, an insecure origin): the site works without it
});
watchConnection(window, { offline: data.textOffline, refused: data.textRefused });
if (data.uploadUrl) configure({ uploadUrl: data.uploadUrl });
start();
