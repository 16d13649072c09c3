/* The offline page: "Try again" reloads; when the device comes back online the page reloads by
   itself (the address is still the page the visitor asked for). */
const retry = document.querySelector("[data-role=retry]");
if (retry) retry.addEventListener("click", () => location.reload());
window.addEventListener("online", () => location.reload());
