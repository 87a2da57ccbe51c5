// The player's language and seat names, as every game renderer reads them from its ctx.

export function langOf(ctx) {
  return ctx && ctx.lang === "es" ? "es" : "en";
}

// A seat's display name; a seat the shell has no name for yet reads "Seat 2" / "Asiento 2".
export function seatName(ctx, seat) {
  return (ctx && ctx.names && ctx.names[seat]) || `${langOf(ctx) === "es" ? "Asiento" : "Seat"} ${seat}`;
}
