/* The load generator's sockets: every simulated browser tab of bench/load.py, in one epoll loop.
 *
 * The load generator shares the machine's two cores with the servers and Postgres, so every
 * microsecond it spends per message is taken from the servers it measures. This program does, per
 * socket, what the browser client does (docs/api/live-play.md): open the websocket, read each snapshot and
 * update, and when its seat is awaited send one of the listed actions (uniformly at random) with a
 * client_id and no expected_version; one command in flight per socket, at most 18 per second per
 * socket, a resync after a refused move. load.py does everything else (the servers, the tables over
 * REST, the figures) and drives this program over its stdin and stdout, one line per command or event.
 *
 * Commands (stdin):  open ID HOST PORT PATH ACTING | play | stop | close ID | dump FILE | quit
 *                    | hold ID | release ID (a held player does not act until released)
 *                    | chat ID (post a chat line from that socket)
 * Events (stdout):   opened ID T | snapshot ID VERSION | finished ID | closed ID T REASON | dumped
 * T is CLOCK_MONOTONIC in seconds, the clock of Python's time.perf_counter().
 * The dump file holds every ack (socket, version, sent, received, the version it was chosen from), every update's version and arrival
 * per socket, every chat line's post and ack, the server's error codes, out-of-order updates and this
 * loop's own wake-up lags.
 *
 * --think-median S (with --think-sigma X) makes a player think before each act, as a person does: a
 * delay drawn from a lognormal distribution with that median (seconds) and shape; 0 (the default) acts as
 * soon as the server's per-socket rate allows. --bind ADDR opens every socket from that local address
 * (127.0.0.x), so that several of these processes reach one server port without sharing a source
 * address's ephemeral ports. --ping S sends the browser's keepalive ({"type":"ping"}) every S seconds on
 * each socket (the server closes a socket silent for WS_IDLE_TIMEOUT).
 *
 * Usage: loadclient [--rate N] [--seed N] [--no-deflate] [--think-median S] [--think-sigma X] [--bind ADDR]
 *        [--ping S]   (built and run by bench/load.py and bench/human.py)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MIN_GAP (1.0 / 18)   /* seconds between one socket's acts: under the server's 20/s per socket */
#define LAG_EVERY 0.002      /* the loop-lag probe's period */
#define CLOSE_WAIT 2.0       /* seconds a closing handshake may take before the socket is dropped */
#define STDIN_TAG 0xFFFFFFFFu

/* ------------------------------------------------------------------------------------------ helpers */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "loadclient: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) die("out of memory");
    return q;
}

typedef struct { char *p; size_t len, cap; } Buf;

static void buf_reserve(Buf *b, size_t extra) {
    if (b->len + extra > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + extra) cap *= 2;
        b->p = xrealloc(b->p, cap);
        b->cap = cap;
    }
}

static void buf_add(Buf *b, const void *data, size_t n) {
    buf_reserve(b, n);
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void buf_drop(Buf *b, size_t n) {  /* remove the first n bytes */
    if (n >= b->len) { b->len = 0; return; }
    memmove(b->p, b->p + n, b->len - n);
    b->len -= n;
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ------------------------------------------------------------------------- SHA-1 and base64 (RFC 6455 §4) */

static void sha1(const unsigned char *msg, size_t len, unsigned char out[20]) {
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t total = ((len + 8) / 64 + 1) * 64;
    unsigned char *m = calloc(total, 1);
    if (!m) die("out of memory");
    memcpy(m, msg, len);
    m[len] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) m[total - 1 - i] = (unsigned char)(bits >> (8 * i));
    for (size_t off = 0; off < total; off += 64) {
        uint32_t w[80];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)m[off + 4 * i] << 24 | (uint32_t)m[off + 4 * i + 1] << 16 |
                   (uint32_t)m[off + 4 * i + 2] << 8 | m[off + 4 * i + 3];
        for (int i = 16; i < 80; i++) {
            uint32_t x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16];
            w[i] = x << 1 | x >> 31;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
        for (int i = 0; i < 80; i++) {
            uint32_t f, k;
            if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
            else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
            else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
            else { f = b ^ c ^ d; k = 0xCA62C1D6; }
            uint32_t t = (a << 5 | a >> 27) + f + e + k + w[i];
            e = d; d = c; c = b << 30 | b >> 2; b = a; a = t;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
    }
    free(m);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++) out[4 * i + j] = (unsigned char)(h[i] >> (24 - 8 * j));
}

static void base64(const unsigned char *in, size_t n, char *out) {
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = t[v >> 18 & 63];
        out[o++] = t[v >> 12 & 63];
        out[o++] = i + 1 < n ? t[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? t[v & 63] : '=';
    }
    out[o] = 0;
}

/* ------------------------------------------------------------------------------------- JSON scanning */

/* Just enough JSON to walk the top level of a server message and take values out as raw text: the
 * server writes compact JSON (orjson), so a listed action's raw text is what the act sends back. */

typedef struct { const char *p; size_t n; } Span;

static const char *skip_ws(const char *p, const char *e) {
    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    return p;
}

static const char *skip_string(const char *p, const char *e) {  /* p at the opening quote */
    for (p++; p < e; p++) {
        if (*p == '\\') p++;
        else if (*p == '"') return p + 1;
    }
    return NULL;
}

static const char *skip_value(const char *p, const char *e) {
    p = skip_ws(p, e);
    if (p >= e) return NULL;
    if (*p == '"') return skip_string(p, e);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; p < e; p++) {
            char c = *p;
            if (c == '"') {
                p = skip_string(p, e);
                if (!p) return NULL;
                p--;
            } else if (c == '{' || c == '[') depth++;
            else if (c == '}' || c == ']') {
                if (--depth == 0) return p + 1;
            }
        }
        return NULL;
    }
    while (p < e && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n') p++;
    return p;
}

static int span_is(Span s, const char *lit) {
    size_t n = strlen(lit);
    return s.n == n && memcmp(s.p, lit, n) == 0;
}

/* Walk an object's members: *p at '{' (first call) or inside it; gives each key (without quotes) and
 * value (raw). Returns 1 per member, 0 at the end, -1 on malformed input. */
static int next_member(const char **p, const char *e, Span *key, Span *val) {
    const char *q = skip_ws(*p, e);
    if (q < e && (*q == '{' || *q == ',')) q = skip_ws(q + 1, e);
    if (q < e && *q == '}') { *p = q + 1; return 0; }
    if (q >= e || *q != '"') return -1;
    const char *k_end = skip_string(q, e);
    if (!k_end) return -1;
    key->p = q + 1;
    key->n = (size_t)(k_end - q - 2);
    q = skip_ws(k_end, e);
    if (q >= e || *q != ':') return -1;
    q = skip_ws(q + 1, e);
    const char *v_end = skip_value(q, e);
    if (!v_end) return -1;
    val->p = q;
    val->n = (size_t)(v_end - q);
    *p = v_end;
    return 1;
}

/* As next_member, but stops (0) at the member "view": the server sends the fields a client acts on before
 * the view (app/realtime/hub.py, viewer_message), so the view, most of each message, is never scanned. */
static int next_member_until_view(const char **p, const char *e, Span *key, Span *val) {
    const char *q = skip_ws(*p, e);
    if (q < e && *q == ',') q = skip_ws(q + 1, e);
    if (e - q > 7 && memcmp(q, "\"view\":", 7) == 0) return 0;
    return next_member(p, e, key, val);
}

static Span string_body(Span v) {  /* the text inside a JSON string's quotes (escapes left as they are) */
    if (v.n >= 2 && v.p[0] == '"') return (Span){v.p + 1, v.n - 2};
    return (Span){v.p, 0};
}

/* The elements of a JSON array, as raw spans; returns how many (at most max). */
static int array_items(Span arr, Span *out, int max) {
    const char *p = arr.p, *e = arr.p + arr.n;
    int n = 0;
    if (p >= e || *p != '[') return 0;
    p++;
    for (;;) {
        p = skip_ws(p, e);
        if (p >= e || *p == ']') return n;
        if (*p == ',') { p++; continue; }
        const char *v_end = skip_value(p, e);
        if (!v_end) return n;
        if (n < max) out[n] = (Span){p, (size_t)(v_end - p)};
        n++;
        p = v_end;
    }
}

static Span nth_item(Span arr, int k) {  /* the k-th element of a JSON array (empty if there is none) */
    const char *p = arr.p + 1, *e = arr.p + arr.n;
    for (int i = 0; arr.n && p < e;) {
        p = skip_ws(p, e);
        if (p < e && *p == ',') { p++; continue; }
        if (p >= e || *p == ']') break;
        const char *v_end = skip_value(p, e);
        if (!v_end) break;
        if (i++ == k) return (Span){p, (size_t)(v_end - p)};
        p = v_end;
    }
    return (Span){arr.p, 0};
}

/* ------------------------------------------------------------------------------------------ records */

typedef struct { int sock; long version; double sent, received; long base; } AckRec;
typedef struct { int sock; long version; double at; } UpdRec;
typedef struct { double at, lag; } LagRec;
typedef struct { int sock; double sent, received; } ChatRec;

static AckRec *acks; static size_t n_acks, cap_acks;
static UpdRec *upds; static size_t n_upds, cap_upds;
static LagRec *lags; static size_t n_lags, cap_lags;
static ChatRec *chats; static size_t n_chats, cap_chats;
static long out_of_order;

#define PUSH(arr, n, cap, item) do { \
    if ((n) == (cap)) { (cap) = (cap) ? (cap) * 2 : 65536; (arr) = xrealloc((arr), (cap) * sizeof *(arr)); } \
    (arr)[(n)++] = (item); } while (0)

typedef struct { char code[64]; long count; } ErrCount;
static ErrCount errors[64];
static int n_errors;

static void count_error(Span code) {
    char name[64];
    size_t n = code.n < sizeof name - 1 ? code.n : sizeof name - 1;
    memcpy(name, code.p, n);
    name[n] = 0;
    for (char *c = name; *c; c++)
        if (*c == ' ' || *c == '\n') *c = '_';
    for (int i = 0; i < n_errors; i++)
        if (strcmp(errors[i].code, name) == 0) { errors[i].count++; return; }
    if (n_errors < 64) {
        strcpy(errors[n_errors].code, name);
        errors[n_errors++].count = 1;
    }
}

/* ------------------------------------------------------------------------------------------ sockets */

enum { CONNECTING, HANDSHAKE, OPEN, CLOSED };

typedef struct {
    int id, fd, state, acting, held, want_out;
    char key[32];
    char request[8192];
    Buf in, out, frag;
    int close_sent, snapshot_seen, finished_seen;
    /* the latest picture this socket got */
    int have_latest, awaited;
    long latest_version;
    Buf actions;               /* its raw `actions` array, when this socket is awaited and acts */
    /* acting */
    int pending, resyncing;
    long pending_seq, act_seq, wait_version, last_version;
    long wait_version_base;    /* the version the pending act was chosen from */
    double pending_sent, last_act;
    Buf pending_action;
    /* chat: the line in flight (one at a time) and how many this socket has posted */
    long chat_seq;
    double chat_sent;
    uint64_t rng;
} Sock;

static Sock **socks;
static int n_socks;
static int epfd;
static int playing, stopping, deflate = 1;
static double rate_gap, rate_next;
static uint64_t seed = 1;
static double think_median, think_sigma = 0.8, ping_every;
static struct in_addr bind_addr;
static int bind_set;

static Sock *sock_by_id(int id) { return id >= 0 && id < n_socks ? socks[id] : NULL; }

static void emit(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
}

/* ------------------------------------------------------------------------------------------- timers */

enum { T_ACT, T_RESYNC, T_CLOSE, T_LAG, T_PING };
typedef struct { double at; int kind, sock; long seq; } Timer;
static Timer *heap; static size_t n_heap, cap_heap;

static void timer_add(double at, int kind, int sock, long seq) {
    Timer t = {at, kind, sock, seq};
    PUSH(heap, n_heap, cap_heap, t);
    for (size_t i = n_heap - 1; i > 0;) {
        size_t up = (i - 1) / 2;
        if (heap[up].at <= heap[i].at) break;
        Timer x = heap[up]; heap[up] = heap[i]; heap[i] = x;
        i = up;
    }
}

static Timer timer_pop(void) {
    Timer top = heap[0];
    heap[0] = heap[--n_heap];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n_heap && heap[l].at < heap[m].at) m = l;
        if (r < n_heap && heap[r].at < heap[m].at) m = r;
        if (m == i) break;
        Timer x = heap[m]; heap[m] = heap[i]; heap[i] = x;
        i = m;
    }
    return top;
}

/* ----------------------------------------------------------------------------------------- writing */

static void sock_close(Sock *s, const char *reason);

static void flush_out(Sock *s) {
    while (s->out.len) {
        ssize_t n = write(s->fd, s->out.p, s->out.len);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            if (errno == EINTR) continue;
            sock_close(s, "write_failed");
            return;
        }
        buf_drop(&s->out, (size_t)n);
    }
    int want_out = s->out.len != 0;
    if (want_out != s->want_out) {  /* a system call only when the interest changes */
        struct epoll_event ev = {.events = EPOLLIN | (want_out ? EPOLLOUT : 0), .data.u32 = (uint32_t)s->id};
        epoll_ctl(epfd, EPOLL_CTL_MOD, s->fd, &ev);
        s->want_out = want_out;
    }
}

static void send_frame(Sock *s, int opcode, const char *payload, size_t n) {
    if (s->state != OPEN) return;
    unsigned char head[14];
    size_t h = 0;
    head[h++] = (unsigned char)(0x80 | opcode);
    if (n < 126) head[h++] = (unsigned char)(0x80 | n);
    else if (n < 65536) { head[h++] = 0x80 | 126; head[h++] = (unsigned char)(n >> 8); head[h++] = (unsigned char)n; }
    else {
        head[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--) head[h++] = (unsigned char)((uint64_t)n >> (8 * i));
    }
    uint32_t k = (uint32_t)splitmix(&s->rng);  /* a load generator's masking keys need not be secret */
    unsigned char mask[4] = {(unsigned char)k, (unsigned char)(k >> 8), (unsigned char)(k >> 16), (unsigned char)(k >> 24)};
    memcpy(head + h, mask, 4);
    h += 4;
    int was_empty = s->out.len == 0;
    buf_add(&s->out, head, h);
    buf_reserve(&s->out, n);
    unsigned char *dst = (unsigned char *)s->out.p + s->out.len;
    for (size_t i = 0; i < n; i++) dst[i] = (unsigned char)payload[i] ^ mask[i & 3];
    s->out.len += n;
    if (was_empty) flush_out(s);
}

static void send_text(Sock *s, const char *text, size_t n) { send_frame(s, 0x1, text, n); }

/* ------------------------------------------------------------------------------------------ playing */

static void act_now(Sock *s, long seq) {
    if (!s->pending || s->pending_seq != seq || s->state != OPEN) return;
    s->pending_sent = now_s();
    Buf m = {0};
    char id[48];
    int idn = snprintf(id, sizeof id, "%d.%ld", s->id, seq);
    buf_add(&m, "{\"type\":\"act\",\"action\":", 23);
    buf_add(&m, s->pending_action.p, s->pending_action.len);
    buf_add(&m, ",\"client_id\":\"", 14);
    buf_add(&m, id, (size_t)idn);
    buf_add(&m, "\"}", 2);
    send_text(s, m.p, m.len);
    free(m.p);
}

/* A lognormal draw (Box-Muller on the socket's own seeded generator): median think_median seconds. */
static double think_time(Sock *s) {
    double u1 = ((double)(splitmix(&s->rng) >> 11) + 1.0) / 9007199254740993.0;  /* (0, 1] */
    double u2 = (double)(splitmix(&s->rng) >> 11) / 9007199254740992.0;
    double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
    return think_median * exp(think_sigma * z);
}

static void post_chat(Sock *s) {
    if (s->state != OPEN || s->chat_sent > 0) return;  /* one line in flight per socket */
    char m[160];
    int n = snprintf(m, sizeof m, "{\"type\":\"chat\",\"text\":\"good move %ld\",\"client_id\":\"c%d.%ld\"}",
                     s->chat_seq + 1, s->id, s->chat_seq + 1);
    s->chat_seq++;
    s->chat_sent = now_s();
    send_text(s, m, (size_t)n);
}

static void maybe_act(Sock *s) {
    if (!s->acting || s->held || !playing || stopping || s->pending || s->resyncing || !s->have_latest ||
        s->state != OPEN || s->latest_version < s->wait_version || !s->awaited || !s->actions.len)
        return;
    Span arr = {s->actions.p, s->actions.len};
    int n = array_items(arr, NULL, 0);
    if (n <= 0) return;
    Span chosen = nth_item(arr, (int)(splitmix(&s->rng) % (uint64_t)n));
    if (!chosen.n) return;
    s->pending_action.len = 0;
    buf_add(&s->pending_action, chosen.p, chosen.n);
    s->pending = 1;
    s->pending_seq = ++s->act_seq;
    s->pending_sent = 0;
    s->wait_version = s->latest_version + 1;
    s->wait_version_base = s->latest_version;
    /* Stay under the server's per-socket message rate, as a person always does. */
    double t = now_s();
    double at = t > s->last_act + MIN_GAP ? t : s->last_act + MIN_GAP;
    if (think_median > 0) {
        double think = think_time(s);
        if (t + think > at) at = t + think;
    }
    if (rate_gap > 0) {
        if (rate_next > at) at = rate_next;
        rate_next = at + rate_gap;
    }
    s->last_act = at;
    if (at > t) timer_add(at, T_ACT, s->id, s->pending_seq);
    else act_now(s, s->pending_seq);
}

static void resync(Sock *s) {
    static const char msg[] = "{\"type\":\"resync\",\"version\":0}";
    send_text(s, msg, sizeof msg - 1);
}

static void on_message(Sock *s, const char *m, size_t n) {
    double t = now_s();
    const char *p = m, *e = m + n;
    Span key, val, type = {0}, version = {0}, seat = {0}, awaiting = {0}, actions = {0}, client_id = {0}, code = {0};
    int finished = 0, r;
    while ((r = next_member_until_view(&p, e, &key, &val)) == 1) {
        if (span_is(key, "type")) type = string_body(val);
        else if (span_is(key, "version")) version = val;
        else if (span_is(key, "seat")) seat = val;
        else if (span_is(key, "awaiting")) awaiting = val;
        else if (span_is(key, "actions")) actions = val;
        else if (span_is(key, "client_id")) client_id = string_body(val);
        else if (span_is(key, "code")) code = string_body(val);
        else if (span_is(key, "table")) {
            const char *q = val.p, *qe = val.p + val.n;
            Span k2, v2;
            while (next_member(&q, qe, &k2, &v2) == 1)
                if (span_is(k2, "status") && span_is(v2, "\"finished\"")) finished = 1;
        }
    }
    if (r < 0) { count_error((Span){"bad_json_from_server", 20}); return; }
    long v = version.n ? strtol(version.p, NULL, 10) : 0;
    if (span_is(type, "snapshot") || span_is(type, "update")) {
        if (span_is(type, "update")) {
            if (s->last_version && v <= s->last_version) out_of_order++;
            s->last_version = v;
            UpdRec u = {s->id, v, t};
            PUSH(upds, n_upds, cap_upds, u);
        } else {
            s->resyncing = 0;
            if (!s->snapshot_seen) {
                s->snapshot_seen = 1;
                emit("snapshot %d %ld", s->id, v);
            }
        }
        s->have_latest = 1;
        s->latest_version = v;
        s->awaited = 0;
        s->actions.len = 0;
        if (s->acting && seat.n >= 2 && seat.p[0] == '"') {
            Span items[16];
            int k = array_items(awaiting, items, 16);
            for (int i = 0; i < k && i < 16; i++)
                if (items[i].n == seat.n && memcmp(items[i].p, seat.p, seat.n) == 0) s->awaited = 1;
            if (s->awaited && actions.n) buf_add(&s->actions, actions.p, actions.n);
        }
        if (finished && !s->finished_seen) {
            s->finished_seen = 1;
            emit("finished %d", s->id);
        }
        maybe_act(s);
    } else if (client_id.n && client_id.p[0] == 'c' && (span_is(type, "ack") || span_is(type, "error"))) {
        /* the answer to this socket's chat line, not to a move */
        if (span_is(type, "ack") && s->chat_sent > 0) {
            ChatRec c = {s->id, s->chat_sent, t};
            PUSH(chats, n_chats, cap_chats, c);
        } else if (span_is(type, "error")) {
            char name[80];
            int k = snprintf(name, sizeof name, "chat:%.*s", (int)(code.n < 60 ? code.n : 60), code.p);
            count_error((Span){name, (size_t)k});
        }
        s->chat_sent = 0;
    } else if (span_is(type, "ack")) {
        char id[48];
        int idn = snprintf(id, sizeof id, "%d.%ld", s->id, s->pending_seq);
        if (s->pending && client_id.n == (size_t)idn && memcmp(client_id.p, id, (size_t)idn) == 0) {
            s->pending = 0;
            if (v > s->wait_version) s->wait_version = v;
            AckRec a = {s->id, v, s->pending_sent, t, s->wait_version_base};
            PUSH(acks, n_acks, cap_acks, a);
        }
        maybe_act(s);
    } else if (span_is(type, "error")) {
        count_error(code.n ? code : (Span){"error_without_code", 18});
        if (s->pending || s->resyncing) {
            /* Like the browser: drop the refused move, refetch the picture, then act again from it; after a
             * rate limit (which may refuse the resync too) only once the bucket has refilled. */
            s->pending = 0;
            s->resyncing = 1;
            s->wait_version = 0;
            if (span_is(code, "rate_limited")) timer_add(t + 1.0, T_RESYNC, s->id, 0);
            else resync(s);
        }
    }
}

/* ----------------------------------------------------------------------------------------- reading */

static int check_handshake(Sock *s, const char *head, size_t n) {
    if (n < 12 || memcmp(head, "HTTP/1.1 101", 12) != 0) return 0;
    char expect[64];
    unsigned char digest[20];
    char material[128];
    int m = snprintf(material, sizeof material, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", s->key);
    sha1((unsigned char *)material, (size_t)m, digest);
    base64(digest, 20, expect);
    int accepted = 0;
    const char *p = head, *e = head + n;
    while (p < e) {
        const char *eol = memmem(p, (size_t)(e - p), "\r\n", 2);
        if (!eol) eol = e;
        const char *colon = memchr(p, ':', (size_t)(eol - p));
        if (colon) {
            size_t kn = (size_t)(colon - p);
            const char *v = colon + 1;
            while (v < eol && *v == ' ') v++;
            size_t vn = (size_t)(eol - v);
            if (kn == 20 && strncasecmp(p, "sec-websocket-accept", 20) == 0)
                accepted = vn == strlen(expect) && memcmp(v, expect, vn) == 0;
            if (kn == 24 && strncasecmp(p, "sec-websocket-extensions", 24) == 0) return 0;  /* cannot inflate */
        }
        p = eol + 2;
    }
    return accepted;
}

static void read_frames(Sock *s) {
    size_t pos = 0;
    const unsigned char *b = (const unsigned char *)s->in.p;
    while (s->state == OPEN && s->in.len - pos >= 2) {
        unsigned b0 = b[pos], b1 = b[pos + 1];
        uint64_t n = b1 & 0x7F;
        size_t start = pos + 2;
        if (n == 126) {
            if (s->in.len - pos < 4) break;
            n = (uint64_t)b[pos + 2] << 8 | b[pos + 3];
            start = pos + 4;
        } else if (n == 127) {
            if (s->in.len - pos < 10) break;
            n = 0;
            for (int i = 0; i < 8; i++) n = n << 8 | b[pos + 2 + i];
            start = pos + 10;
        }
        if (b1 & 0x80) { sock_close(s, "masked_server_frame"); return; }  /* RFC 6455 §5.1 */
        if (s->in.len - start < n) break;
        const char *payload = s->in.p + start;
        int fin = (b0 & 0x80) != 0, opcode = b0 & 0x0F;
        pos = start + (size_t)n;
        if (opcode == 0x1 || opcode == 0x2 || opcode == 0x0) {
            if (opcode != 0x0) s->frag.len = 0;
            if (fin && s->frag.len == 0) on_message(s, payload, (size_t)n);
            else {
                buf_add(&s->frag, payload, (size_t)n);
                if (fin) {
                    Buf whole = s->frag;
                    s->frag = (Buf){0};
                    on_message(s, whole.p, whole.len);
                    free(whole.p);
                }
            }
        } else if (opcode == 0x9) {
            send_frame(s, 0xA, payload, (size_t)n);
        } else if (opcode == 0x8 && !s->close_sent) {  /* answer it; the server then ends the connection */
            send_frame(s, 0x8, payload, n < 2 ? (size_t)n : 2);
            s->close_sent = 1;
        }
    }
    if (s->state != CLOSED) buf_drop(&s->in, pos);
}

static void on_readable(Sock *s) {
    for (;;) {
        buf_reserve(&s->in, 16384);
        size_t room = s->in.cap - s->in.len;
        ssize_t n = read(s->fd, s->in.p + s->in.len, room);
        if (n == 0) { sock_close(s, s->state == OPEN ? "ok" : "closed_during_handshake"); return; }
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            if (errno == EINTR) continue;
            sock_close(s, "read_failed");
            return;
        }
        s->in.len += (size_t)n;
        if (s->state == HANDSHAKE) {
            char *end = memmem(s->in.p, s->in.len, "\r\n\r\n", 4);
            if (!end) continue;
            size_t head = (size_t)(end - s->in.p);
            if (!check_handshake(s, s->in.p, head)) { sock_close(s, "handshake"); return; }
            buf_drop(&s->in, head + 4);
            s->state = OPEN;
            double t = now_s();
            emit("opened %d %.6f", s->id, t);
            /* the browser's keepalive, each socket at its own phase */
            if (ping_every > 0) timer_add(t + ping_every * (double)(splitmix(&s->rng) % 1000) / 1000, T_PING, s->id, 0);
        }
        if (s->state == OPEN) read_frames(s);
        if (s->state == CLOSED) return;
        /* One read per readiness unless the buffer filled: epoll (level-triggered) reports the rest, and
         * a read that would only say EAGAIN is a system call saved. */
        if ((size_t)n < room) return;
    }
}

static void on_connected(Sock *s) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) { sock_close(s, "connect_failed"); return; }
    s->state = HANDSHAKE;
    buf_add(&s->out, s->request, strlen(s->request));
    flush_out(s);
}

static void sock_close(Sock *s, const char *reason) {
    if (s->state == CLOSED) return;
    epoll_ctl(epfd, EPOLL_CTL_DEL, s->fd, NULL);
    close(s->fd);
    s->state = CLOSED;
    s->pending = 0;
    emit("closed %d %.6f %s", s->id, now_s(), reason);
}

static void sock_open(int id, const char *host, int port, const char *path, int acting, const char *token) {
    if (id < 0 || id > 1000000) die("bad socket id %d", id);
    if (id >= n_socks) {
        socks = xrealloc(socks, (size_t)(id + 1) * sizeof *socks);
        for (int i = n_socks; i <= id; i++) socks[i] = NULL;
        n_socks = id + 1;
    }
    if (socks[id]) die("socket id %d used twice", id);
    Sock *s = calloc(1, sizeof *s);
    if (!s) die("out of memory");
    socks[id] = s;
    s->id = id;
    s->acting = acting;
    s->rng = seed * 1000003u + (uint64_t)id;
    unsigned char raw[16];
    for (int i = 0; i < 16; i++) raw[i] = (unsigned char)splitmix(&s->rng);
    base64(raw, 16, s->key);
    snprintf(s->request, sizeof s->request,
             "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s%s%s%s\r\n",
             path, host, port, s->key, deflate ? "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" : "",
             /* a seated socket's session, as a browser sends it: in its cookie, never in the URL */
             token[0] ? "Cookie: session=" : "", token, token[0] ? "\r\n" : "");
    s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s->fd < 0) die("socket: %s", strerror(errno));
    int one = 1;
    setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  /* as browsers do for websockets */
    if (bind_set) {
        struct sockaddr_in local = {.sin_family = AF_INET, .sin_addr = bind_addr};
        if (bind(s->fd, (struct sockaddr *)&local, sizeof local) < 0) die("bind: %s", strerror(errno));
    }
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) die("not an IPv4 address: %s", host);
    s->state = CONNECTING;
    s->want_out = 1;
    struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.u32 = (uint32_t)id};
    epoll_ctl(epfd, EPOLL_CTL_ADD, s->fd, &ev);
    if (connect(s->fd, (struct sockaddr *)&addr, sizeof addr) < 0 && errno != EINPROGRESS) {
        sock_close(s, "connect_failed");
        return;
    }
}

/* -------------------------------------------------------------------------------------------- dump */

static int dump(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    for (size_t i = 0; i < n_acks; i++)
        fprintf(f, "a %d %ld %.6f %.6f %ld\n", acks[i].sock, acks[i].version, acks[i].sent, acks[i].received,
                acks[i].base);
    for (size_t i = 0; i < n_upds; i++) fprintf(f, "u %d %ld %.6f\n", upds[i].sock, upds[i].version, upds[i].at);
    for (size_t i = 0; i < n_lags; i++) fprintf(f, "l %.6f %.6f\n", lags[i].at, lags[i].lag);
    for (size_t i = 0; i < n_chats; i++) fprintf(f, "c %d %.6f %.6f\n", chats[i].sock, chats[i].sent, chats[i].received);
    for (int i = 0; i < n_errors; i++) fprintf(f, "e %s %ld\n", errors[i].code, errors[i].count);
    fprintf(f, "o %ld\n", out_of_order);
    return fclose(f) == 0;
}

/* ---------------------------------------------------------------------------------------- commands */

static Buf cmd;

static int command(char *line) {
    char host[64], path[4096], token[1024] = "";
    int id, port, acting;
    if (sscanf(line, "open %d %63s %d %4095s %d %1023s", &id, host, &port, path, &acting, token) >= 5)
        sock_open(id, host, port, path, acting, token);
    else if (strcmp(line, "play") == 0) {
        playing = 1;
        for (int i = 0; i < n_socks; i++)
            if (socks[i]) maybe_act(socks[i]);
    } else if (strcmp(line, "stop") == 0) stopping = 1;
    else if (sscanf(line, "hold %d", &id) == 1) {
        Sock *s = sock_by_id(id);
        if (s) s->held = 1;
    } else if (sscanf(line, "release %d", &id) == 1) {
        Sock *s = sock_by_id(id);
        if (s) { s->held = 0; maybe_act(s); }
    }
    else if (sscanf(line, "chat %d", &id) == 1) {
        Sock *s = sock_by_id(id);
        if (s) post_chat(s);
    }
    else if (sscanf(line, "close %d", &id) == 1) {
        Sock *s = sock_by_id(id);
        if (s && s->state == OPEN && !s->close_sent) {
            static const unsigned char normal[2] = {0x03, 0xE8};  /* 1000 */
            send_frame(s, 0x8, (const char *)normal, 2);
            s->close_sent = 1;
            timer_add(now_s() + CLOSE_WAIT, T_CLOSE, id, 0);
        } else if (s && s->state != CLOSED && !s->close_sent) sock_close(s, "closed_by_client");
    } else if (strncmp(line, "dump ", 5) == 0) {
        if (!dump(line + 5)) die("cannot write %s", line + 5);
        emit("dumped");
    } else if (strcmp(line, "quit") == 0) return 0;
    else if (line[0]) die("unknown command: %s", line);
    return 1;
}

static int read_commands(void) {
    for (;;) {
        buf_reserve(&cmd, 4096);
        ssize_t n = read(0, cmd.p + cmd.len, cmd.cap - cmd.len);
        if (n == 0) return 0;  /* load.py is gone */
        if (n < 0) return errno == EAGAIN || errno == EINTR;
        cmd.len += (size_t)n;
        char *nl;
        while ((nl = memchr(cmd.p, '\n', cmd.len))) {
            *nl = 0;
            int go_on = command(cmd.p);
            buf_drop(&cmd, (size_t)(nl - cmd.p) + 1);
            if (!go_on) return 0;
        }
    }
}

/* -------------------------------------------------------------------------------------------- main */

int main(int argc, char **argv) {
    double rate = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rate") == 0 && i + 1 < argc) rate = atof(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--no-deflate") == 0) deflate = 0;
        else if (strcmp(argv[i], "--think-median") == 0 && i + 1 < argc) think_median = atof(argv[++i]);
        else if (strcmp(argv[i], "--think-sigma") == 0 && i + 1 < argc) think_sigma = atof(argv[++i]);
        else if (strcmp(argv[i], "--ping") == 0 && i + 1 < argc) ping_every = atof(argv[++i]);
        else if (strcmp(argv[i], "--bind") == 0 && i + 1 < argc) {
            if (inet_pton(AF_INET, argv[++i], &bind_addr) != 1) die("not an IPv4 address: %s", argv[i]);
            bind_set = 1;
        }
        else die("usage: loadclient [--rate N] [--seed N] [--no-deflate] [--think-median S] [--think-sigma X] "
                 "[--bind ADDR] [--ping S]");
    }
    rate_gap = rate > 0 ? 1.0 / rate : 0;
    signal(SIGPIPE, SIG_IGN);
    epfd = epoll_create1(EPOLL_CLOEXEC);
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    struct epoll_event in = {.events = EPOLLIN, .data.u32 = STDIN_TAG};
    epoll_ctl(epfd, EPOLL_CTL_ADD, 0, &in);
    timer_add(now_s() + LAG_EVERY, T_LAG, -1, 0);
    struct epoll_event events[256];
    for (;;) {
        double t = now_s();
        int timeout = -1;
        if (n_heap) {
            double wait = heap[0].at - t;
            timeout = wait <= 0 ? 0 : (int)ceil(wait * 1000);
        }
        int n = epoll_wait(epfd, events, 256, timeout);
        if (n < 0 && errno != EINTR) die("epoll_wait: %s", strerror(errno));
        for (int i = 0; i < n; i++) {
            uint32_t tag = events[i].data.u32;
            if (tag == STDIN_TAG) {
                if (!read_commands()) return 0;
                continue;
            }
            Sock *s = sock_by_id((int)tag);
            if (!s || s->state == CLOSED) continue;
            uint32_t ev = events[i].events;
            if (s->state == CONNECTING) {
                if (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP)) on_connected(s);
                continue;
            }
            if (ev & EPOLLOUT) flush_out(s);
            if (s->state != CLOSED && (ev & (EPOLLIN | EPOLLERR | EPOLLHUP))) on_readable(s);
        }
        t = now_s();
        while (n_heap && heap[0].at <= t) {
            Timer x = timer_pop();
            Sock *s = sock_by_id(x.sock);
            if (x.kind == T_LAG) {
                LagRec l = {x.at - LAG_EVERY, t - x.at};
                PUSH(lags, n_lags, cap_lags, l);
                timer_add(t + LAG_EVERY, T_LAG, -1, 0);
            } else if (s && s->state != CLOSED) {
                if (x.kind == T_ACT) act_now(s, x.seq);
                else if (x.kind == T_RESYNC) resync(s);
                else if (x.kind == T_CLOSE) sock_close(s, "ok");
                else if (x.kind == T_PING && !s->close_sent) {
                    static const char ping[] = "{\"type\":\"ping\"}";
                    send_text(s, ping, sizeof ping - 1);
                    timer_add(t + ping_every, T_PING, s->id, 0);
                }
            }
        }
    }
}
