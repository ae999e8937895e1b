/*
 * gdb remote serial protocol framing: the receive state machine, packet
 * framing for replies, and the hex helpers every command uses.  No I/O
 * happens here (see packet.h for the wire format and the error rules).
 */
#include <assert.h>
#include <string.h>

#include "gdbstub/packet.h"

#define HEX_DIGITS_PER_BYTE 2
#define NIBBLE_BITS 4
#define NIBBLE_MASK 0xf
#define MAX_HEX64_DIGITS 16
#define HEX_LETTER_VALUE 10 /* 'a' */

static const char hex_chars[] = "0123456789abcdef";

void gdb_rx_init(GdbRx *rx)
{
    rx->state = GDB_RX_IDLE;
    rx->sum = 0;
    rx->csum_hi = 0;
    rx->overflow = false;
    rx->malformed = false;
    rx->len = 0;
    rx->buf[0] = 0;
}

static void rx_start(GdbRx *rx)
{
    gdb_rx_init(rx);
    rx->state = GDB_RX_BODY;
}

/* Store one decoded body byte (or note the overflow). */
static void rx_put(GdbRx *rx, uint8_t c)
{
    if (rx->len >= GDB_MAX_PACKET) {
        rx->overflow = true;
        return;
    }
    rx->buf[rx->len++] = c;
}

/* "<c>*<n>": repeat the previous decoded byte n - GDB_RLE_BIAS times. */
static void rx_repeat(GdbRx *rx, uint8_t count)
{
    unsigned n;

    if (count < GDB_RLE_MIN_COUNT || count > GDB_RLE_MAX_COUNT || count == GDB_CHAR_START ||
        count == GDB_CHAR_END || (rx->len == 0 && !rx->overflow)) {
        rx->malformed = true;
        return;
    }
    n = (unsigned)count - GDB_RLE_BIAS;
    for (unsigned i = 0; i < n; i++) {
        /* After an overflow the byte to repeat is gone; only the length
         * matters then, and it is already too long. */
        rx_put(rx, rx->len ? rx->buf[rx->len - 1] : 0);
    }
}

static GdbRxEvent rx_finish(GdbRx *rx, uint8_t sum)
{
    GdbRxEvent ev;

    rx->state = GDB_RX_IDLE;
    if (rx->malformed || sum != rx->sum) {
        ev = GDB_RX_BAD_CHECKSUM;
    } else if (rx->overflow) {
        ev = GDB_RX_OVERSIZED;
    } else {
        ev = GDB_RX_PACKET;
    }
    rx->buf[ev == GDB_RX_PACKET ? rx->len : 0] = 0;
    if (ev != GDB_RX_PACKET) {
        rx->len = 0;
    }
    return ev;
}

GdbRxEvent gdb_rx_byte(GdbRx *rx, uint8_t c)
{
    int d;

    switch (rx->state) {
    case GDB_RX_IDLE:
        switch (c) {
        case GDB_CHAR_START:
            rx_start(rx);
            return GDB_RX_NONE;
        case GDB_CHAR_ACK:
            return GDB_RX_ACK;
        case GDB_CHAR_NACK:
            return GDB_RX_NACK;
        case GDB_CHAR_INTERRUPT:
            return GDB_RX_INTERRUPT;
        default:
            return GDB_RX_NONE; /* noise between packets */
        }
    case GDB_RX_BODY:
        if (c == GDB_CHAR_START) {
            rx_start(rx); /* the previous packet lost its end */
            return GDB_RX_NONE;
        }
        if (c == GDB_CHAR_END) {
            rx->state = GDB_RX_CSUM_HI;
            return GDB_RX_NONE;
        }
        rx->sum += c;
        if (c == GDB_CHAR_ESCAPE) {
            rx->state = GDB_RX_ESCAPED;
        } else if (c == GDB_CHAR_RLE) {
            rx->state = GDB_RX_COUNT;
        } else {
            rx_put(rx, c);
        }
        return GDB_RX_NONE;
    case GDB_RX_ESCAPED:
        rx->sum += c;
        rx_put(rx, c ^ GDB_ESCAPE_XOR);
        rx->state = GDB_RX_BODY;
        return GDB_RX_NONE;
    case GDB_RX_COUNT:
        if (c == GDB_CHAR_START) {
            rx_start(rx);
            return GDB_RX_NONE;
        }
        rx->sum += c;
        rx_repeat(rx, c);
        rx->state = GDB_RX_BODY;
        return GDB_RX_NONE;
    case GDB_RX_CSUM_HI:
        d = gdb_hex_digit(c);
        if (d < 0) {
            rx->malformed = true;
            d = 0;
        }
        rx->csum_hi = (uint8_t)d;
        rx->state = GDB_RX_CSUM_LO;
        return GDB_RX_NONE;
    case GDB_RX_CSUM_LO:
        d = gdb_hex_digit(c);
        if (d < 0) {
            rx->malformed = true;
            d = 0;
        }
        return rx_finish(rx, (uint8_t)(rx->csum_hi << NIBBLE_BITS | d));
    }
    return GDB_RX_NONE;
}

static void frame_end(GString *out, uint8_t sum)
{
    g_string_append_c(out, GDB_CHAR_END);
    g_string_append_c(out, hex_chars[sum >> NIBBLE_BITS]);
    g_string_append_c(out, hex_chars[sum & NIBBLE_MASK]);
}

static bool is_special(uint8_t c)
{
    return c == GDB_CHAR_START || c == GDB_CHAR_END || c == GDB_CHAR_ESCAPE || c == GDB_CHAR_RLE;
}

void gdb_frame_text(GString *out, const char *body, size_t len)
{
    uint8_t sum = 0;

    g_string_append_c(out, GDB_CHAR_START);
    for (size_t i = 0; i < len; i++) {
        assert(!is_special((uint8_t)body[i]));
        sum += (uint8_t)body[i];
    }
    g_string_append_len(out, body, (gssize)len);
    frame_end(out, sum);
}

void gdb_frame_binary(GString *out, const uint8_t *body, size_t len)
{
    uint8_t sum = 0;

    g_string_append_c(out, GDB_CHAR_START);
    for (size_t i = 0; i < len; i++) {
        uint8_t c = body[i];
        if (is_special(c)) {
            g_string_append_c(out, GDB_CHAR_ESCAPE);
            sum += GDB_CHAR_ESCAPE;
            c ^= GDB_ESCAPE_XOR;
        }
        g_string_append_c(out, (char)c);
        sum += c;
    }
    frame_end(out, sum);
}

int gdb_hex_digit(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + HEX_LETTER_VALUE;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + HEX_LETTER_VALUE;
    }
    return -1;
}

void gdb_hex_append(GString *out, const uint8_t *buf, size_t len)
{
    gsize at = out->len;
    char *p;

    g_string_set_size(out, at + HEX_DIGITS_PER_BYTE * len);
    p = out->str + at;
    for (size_t i = 0; i < len; i++) {
        *p++ = hex_chars[buf[i] >> NIBBLE_BITS];
        *p++ = hex_chars[buf[i] & NIBBLE_MASK];
    }
}

void gdb_hex_append_le64(GString *out, uint64_t v)
{
    uint8_t b[sizeof(v)];

    for (size_t i = 0; i < sizeof(v); i++) {
        b[i] = (uint8_t)(v >> (8 * i));
    }
    gdb_hex_append(out, b, sizeof(b));
}

bool gdb_hex_decode(const char *s, uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        int hi = gdb_hex_digit((unsigned char)s[HEX_DIGITS_PER_BYTE * i]);
        int lo = hi < 0 ? -1 : gdb_hex_digit((unsigned char)s[HEX_DIGITS_PER_BYTE * i + 1]);
        if (lo < 0) {
            return false;
        }
        out[i] = (uint8_t)(hi << NIBBLE_BITS | lo);
    }
    return true;
}

bool gdb_parse_hex(const char **p, uint64_t *v)
{
    const char *s = *p;
    uint64_t x = 0;
    unsigned n = 0;
    int d;

    while ((d = gdb_hex_digit((unsigned char)*s)) >= 0) {
        if (++n > MAX_HEX64_DIGITS) {
            return false;
        }
        x = x << NIBBLE_BITS | (uint64_t)d;
        s++;
    }
    if (n == 0) {
        return false;
    }
    *v = x;
    *p = s;
    return true;
}

bool gdb_parse_le64(const char *s, uint64_t *v)
{
    uint8_t b[sizeof(*v)];
    uint64_t x = 0;

    if (!gdb_hex_decode(s, b, sizeof(b))) {
        return false;
    }
    for (size_t i = 0; i < sizeof(b); i++) {
        x |= (uint64_t)b[i] << (8 * i);
    }
    *v = x;
    return true;
}
