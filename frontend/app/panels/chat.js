// The chat panel at the table: ChatPanel (chat.js) told of what the store knows about the table (whether the
// viewer hosts it, who may write), and the store told when the host's list of muted people changed.

import { ChatPanel } from "../chat.js";
import { panel } from "../store.js";

/**
 * @param {import("../store.js").Store<import("../table-state.js").TableState>} store
 * @param {{tableId: string, invite: string|null, socket: () => any, signIn: () => void}} deps
 */
export function chatPanel(store, deps) {
  const chat = new ChatPanel({ ...deps, onMutes: () => store.set({ mutes: store.get().mutes + 1 }) });
  const handle = panel(store, (s) => [s.table?.is_host === true, s.table?.chat_mode], (host, mode) => {
    if (!store.get().table) return;
    chat.setHost(host);
    chat.setMode(mode);
  });
  return { chat, handle };
}
