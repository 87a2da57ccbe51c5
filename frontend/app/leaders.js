// The leaderboards (/leaders/{game}?page=N&cursor=C): each game's rated people, best first, a page at a time. The
// cursor (docs/api/pagination.md) says where the page starts; the page number is for people, and the ranks come
// from the server.

import { h, mount } from "../lib/dom.js";
import { afterPress } from "../lib/press.js";
import { api, query, ApiError } from "./api.js";
import { t, onLangChange } from "./i18n.js";
import { me, loadMe, onSignedOut } from "./session.js";
import { errorMessage, renderHeader, personLink, toast, signedOutText, leadersUrl, ratingValue } from "./ui.js";

const PAGE = 50; // rows per page (the server's default)

const S = {
  games: [], // GET /api/games: the tabs, in the lobby's order
  board: null, // the answer of GET /api/games/{id}/leaderboard for the page shown
  cursors: new Map(), // "game page" -> the cursor of that page, as learnt on the way, for the "previous" link
  loading: false,
  error: null, // {message} when the games or the page could not be loaded
};

const els = {};

/** The game, page and cursor the address names (the first game's first page when it names none). */
function fromUrl() {
  const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const params = new URLSearchParams(location.search);
  const cursor = params.get("cursor") || null;
  const page = Number.parseInt(params.get("page") || "1", 10);
  return {
    game: game || (S.games[0] && S.games[0].id) || "",
    page: cursor && Number.isInteger(page) && page > 1 ? page : 1,
    cursor,
  };
}

function pageUrl(game, page, cursor) {
  return `${leadersUrl(game)}${query({ page: page > 1 && cursor ? page : null, cursor: page > 1 ? cursor : null })}`;
}

/** Go to a game's page without a reload; the address says where, so a reload or a shared link shows the same. */
function go(game, page, cursor) {
  history.pushState(null, "", pageUrl(game, page, cursor));
  load();
}

/** A link to page `page` of `game`, which starts at `cursor` (none: the first page). */
function link(game, page, cursor, props, ...children) {
  return h("a", {
    href: pageUrl(game, page, cursor),
    onclick: (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab
      event.preventDefault();
      go(game, page, cursor);
    },
    ...props,
  }, ...children);
}

// ---- drawing -------------------------------------------------------------------

/** One link per game, the shown one marked; links, so each game has its own address. */
function drawTabs(current) {
  return h("nav", { class: "tabs leaders-tabs", "aria-label": t("leaders.games"), "data-testid": "leaders-games" },
    S.games.map((game) => link(game.id, 1, null, {
      class: ["button", "tab", game.id === current && "active"],
      "aria-current": game.id === current ? "page" : null,
      "data-game": game.id,
    }, game.title)));
}

/** Where I stand, said above the table when my row is not on the page shown (or I am not listed, and why). */
function drawMine() {
  const board = S.board;
  const mine = board.me;
  const user = me();
  if (!user) return null;
  if (mine && mine.rank !== null && board.rows.some((row) => row.user.id === mine.user.id)) return null;
  let text;
  // A guest is never listed (and no longer rated): said first, whatever rating a guest may have kept.
  if (!user.username || (mine && mine.guest)) text = t("leaders.me_guest");
  else if (!mine) text = t("leaders.me_unrated", { min: board.min_games });
  else if (mine.rank === null) text = t("leaders.me_few", { rating: mine.rating, games: mine.games, min: board.min_games });
  return h("div", { class: "leaders-me panel", "data-testid": "leaders-me" },
    text ? h("p", null, text) : h("p", null,
      h("strong", null, t("leaders.me_rank", { rank: mine.rank })), " · ",
      t("leaders.me_rating", { rating: mine.rating, games: mine.games }), " ",
      link(board.game, Math.floor((mine.rank - 1) / PAGE) + 1, mine.page, { "data-testid": "leaders-me-page" }, t("leaders.me_page"))));
}

function drawTable() {
  const board = S.board;
  const mine = me() && me().id;
  if (!board.rows.length) {
    if (fromUrl().cursor) {
      return h("p", { class: "muted", "data-testid": "leaders-empty" }, t("leaders.past_end"), " ",
        link(board.game, 1, null, {}, t("leaders.first_page")));
    }
    return h("p", { class: "muted", "data-testid": "leaders-empty" }, t("leaders.empty", { min: board.min_games }));
  }
  // Its own scroll box: a narrow phone never makes the whole page scroll sideways.
  return h("div", { class: "profile-summary-wrap" }, h("table", { class: "ranking leaders-table", "data-testid": "leaders-table" },
    h("caption", { class: "sr-only" }, t("leaders.caption", { game: board.title })),
    h("thead", null, h("tr", null,
      h("th", { scope: "col", class: "num col-rank" }, t("leaders.rank")),
      h("th", { scope: "col" }, t("leaders.player")),
      h("th", { scope: "col", class: "num col-rating" }, t("profile.rating")),
      h("th", { scope: "col", class: "num col-games" }, t("profile.rated_games")))),
    h("tbody", null, board.rows.map((row) => h("tr", {
      class: row.user.id === mine ? "me" : null, "data-user-id": row.user.id, "data-testid": "leaders-row",
      "aria-current": row.user.id === mine ? "true" : null,
    },
      h("td", { class: "num" }, String(row.rank)),
      h("th", { scope: "row" }, personLink(row.user),
        row.user.id === mine ? h("span", { class: "tag you" }, t("table.you")) : null),
      h("td", { class: "num rating-value" }, ratingValue(row)),
      h("td", { class: "num" }, String(row.games)))))));
}

function drawPaging() {
  const board = S.board;
  const { page } = fromUrl();
  if (page === 1 && board.next === null) return null;
  // The page before: its cursor as learnt on the way here, else (an address opened as it was) the first page.
  const before = S.cursors.get(`${board.game} ${page - 1}`);
  const back = page > 2 && before ? page - 1 : 1;
  return h("nav", { class: "row leaders-paging", "aria-label": t("leaders.paging"), "data-testid": "leaders-paging" },
    page > 1 ? link(board.game, back, back > 1 ? before : null, { class: "button secondary", rel: "prev", "data-testid": "leaders-prev" }, t("leaders.prev")) : null,
    h("span", { class: "muted", "data-testid": "leaders-page" }, t("leaders.page", { page })),
    board.next !== null
      ? link(board.game, page + 1, board.next, { class: "button secondary", rel: "next", "data-testid": "leaders-next" }, t("leaders.next")) : null);
}

function drawPage() {
  renderHeader(els.header, { onChange: () => start(), nav: true });
  const { game } = fromUrl();
  const title = S.games.find((g) => g.id === game)?.title;
  document.title = `${title ? t("leaders.page_title", { game: title }) : t("leaders.title")} · ${t("app.name")}`;
  const parts = [h("h1", null, t("leaders.title"))];
  if (S.games.length) parts.push(drawTabs(game));
  if (S.error) {
    parts.push(h("section", { class: "panel" },
      h("p", { "data-testid": "leaders-error" }, S.error.message),
      h("a", { class: "button secondary", href: "/" }, t("table.back"))));
  } else if (!S.board || S.board.game !== game) {
    parts.push(h("p", { class: "muted" }, t("leaders.loading")));
  } else {
    parts.push(drawMine(), h("section", { class: "panel", "aria-labelledby": "leaders-board-title", "aria-busy": S.loading ? "true" : null },
      h("h2", { id: "leaders-board-title" }, S.board.title),
      h("p", { class: "muted small", "data-testid": "leaders-note" }, t("leaders.note", { min: S.board.min_games })),
      drawTable(),
      drawPaging()));
  }
  mount(els.main, ...parts);
}

// ---- loading -------------------------------------------------------------------

let asked = 0; // the latest page asked for: an older answer arriving late is dropped

async function load() {
  const { game, page, cursor } = fromUrl();
  const mine = ++asked;
  S.loading = true;
  S.error = null;
  drawPage();
  try {
    const board = await api("GET", `/api/games/${encodeURIComponent(game)}/leaderboard${query({ cursor, limit: PAGE })}`);
    if (mine !== asked) return;
    S.board = board;
    if (cursor) S.cursors.set(`${game} ${page}`, cursor);
  } catch (error) {
    if (mine !== asked) return;
    S.board = null;
    S.error = { message: error instanceof ApiError && error.code === "unknown_game" ? t("leaders.unknown_game") : errorMessage(error) };
  }
  S.loading = false;
  afterPress(drawPage); // a click under way (another game's tab) keeps the element it pressed
}

async function start() {
  try {
    await loadMe();
  } catch (error) {
    toast(errorMessage(error), "error");
  }
  if (!S.games.length) {
    try {
      S.games = await api("GET", "/api/games");
    } catch (error) {
      S.error = { message: errorMessage(error) };
      drawPage();
      return;
    }
  }
  await load();
}

function init() {
  els.header = document.getElementById("header");
  els.main = document.getElementById("main");
  onLangChange(drawPage);
  window.addEventListener("popstate", () => load());
  // The session ended elsewhere (found by a refused call): say so, and draw the page as a visitor sees it.
  onSignedOut((refusal) => {
    toast(signedOutText(refusal), "error");
    start();
  });
  start();
}

init();
