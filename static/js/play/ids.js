// Ids made by the page: a move's id (docs/protocol.md: the server applies an id once) and a game
// on the device's id (the records queue keeps a record once per id: CONTRACTS.md section 4).

// A random (version 4) UUID, also where crypto.randomUUID is missing (plain-HTTP pages of old browsers).
export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
