/*
 * gdb remote serial protocol (RSP): packet framing, with no I/O.
 *
 * A packet on the wire is  $<body>#<two hex digits>  where the digits are
 * the modulo-256 sum of the body bytes as sent.  Inside the body, '}'
 * escapes the next byte (sent XOR 0x20) and "<c>*<n>" repeats c another
 * n - 29 times (run-length encoding).  Outside a packet the peer sends '+'
 * (acknowledge), '-' (resend please) and 0x03 (interrupt: Ctrl-C).
 *
 * The receiver is a byte-at-a-time state machine (GdbRx), so the caller
 * feeds whatever read() returned and never blocks inside a packet.  It
 * never writes past its buffer: a body longer than GDB_MAX_PACKET is read
 * to its end and reported as GDB_RX_OVERSIZED (the caller answers with an
 * error), a wrong checksum as GDB_RX_BAD_CHECKSUM (the caller answers '-'
 * so gdb sends it again), and a malformed body (a run-length count with
 * nothing to repeat or out of range, a non-hex checksum digit) the same
 * way.  A '$' inside a packet restarts the packet: the earlier one lost
 * its end.
 *
 * Senders: gdb_frame_text() frames a reply that never contains the
 * special bytes (hex, stop replies, "OK"); gdb_frame_binary() escapes
 * '$', '#', '}' and '*' (qXfer data).  Both append to a GString.
 *
 *   GdbRx rx;
 *   gdb_rx_init(&rx);
 *   for (each byte b read) {
 *       switch (gdb_rx_byte(&rx, b)) {
 *       case GDB_RX_PACKET: handle(rx.buf, rx.len); break;   // NUL-terminated
 *       case GDB_RX_BAD_CHECKSUM: send "-"; break;
 *       ...
 *       }
 *   }
 */
#ifndef LINX_GDBSTUB_PACKET_H
#define LINX_GDBSTUB_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* Largest body we accept and send (qSupported PacketSize). */
#define GDB_MAX_PACKET 16384

/* Protocol bytes. */
enum {
    GDB_CHAR_START = '$',
    GDB_CHAR_END = '#',
    GDB_CHAR_ESCAPE = '}',
    GDB_CHAR_RLE = '*',
    GDB_CHAR_ACK = '+',
    GDB_CHAR_NACK = '-',
    GDB_CHAR_INTERRUPT = 0x03,
    GDB_ESCAPE_XOR = 0x20,
    /* A run-length count byte n repeats the previous byte n - 29 times. */
    GDB_RLE_BIAS = 29,
    GDB_RLE_MIN_COUNT = ' ', /* 3 repeats */
    GDB_RLE_MAX_COUNT = '~', /* 97 repeats */
};

typedef enum GdbRxState {
    GDB_RX_IDLE,     /* between packets */
    GDB_RX_BODY,     /* after '$' */
    GDB_RX_ESCAPED,  /* after '}' */
    GDB_RX_COUNT,    /* after '*': the count byte */
    GDB_RX_CSUM_HI,  /* after '#' */
    GDB_RX_CSUM_LO,
} GdbRxState;

typedef enum GdbRxEvent {
    GDB_RX_NONE,         /* byte taken, nothing complete yet */
    GDB_RX_PACKET,       /* rx.buf[0 .. rx.len) is a packet body (NUL after it) */
    GDB_RX_BAD_CHECKSUM, /* wrong checksum or malformed body: answer '-' */
    GDB_RX_OVERSIZED,    /* checksum fine but the body was too long: error reply */
    GDB_RX_INTERRUPT,    /* 0x03 between packets */
    GDB_RX_ACK,          /* '+' */
    GDB_RX_NACK,         /* '-' */
} GdbRxEvent;

typedef struct GdbRx {
    GdbRxState state;
    uint8_t sum;        /* running checksum of the body as sent */
    uint8_t csum_hi;    /* value of the first checksum digit */
    bool overflow;      /* body longer than GDB_MAX_PACKET */
    bool malformed;     /* bad run-length count or checksum digit */
    size_t len;         /* decoded body bytes in buf */
    uint8_t buf[GDB_MAX_PACKET + 1];
} GdbRx;

void gdb_rx_init(GdbRx *rx);
GdbRxEvent gdb_rx_byte(GdbRx *rx, uint8_t c);

/* Append "$<body>#<sum>" to @out.  gdb_frame_text() requires a body
 * without '$', '#', '}' or '*' (it asserts so in debug builds); the binary
 * variant escapes them. */
void gdb_frame_text(GString *out, const char *body, size_t len);
void gdb_frame_binary(GString *out, const uint8_t *body, size_t len);

/* ---- Hex helpers ---- */

/* Value of a hex digit, or -1. */
int gdb_hex_digit(int c);
/* Append 2 * @len lowercase hex digits. */
void gdb_hex_append(GString *out, const uint8_t *buf, size_t len);
/* Append @v as 8 little-endian bytes in hex (a register value). */
void gdb_hex_append_le64(GString *out, uint64_t v);
/* Decode exactly 2 * @len hex digits at @s into @out; false on a bad digit
 * or when @s is shorter (it stops at a NUL). */
bool gdb_hex_decode(const char *s, uint8_t *out, size_t len);
/* Parse a hex number (1 to 16 digits) at *@p, advancing it; false (and
 * *@p unchanged) when there is none or it overflows 64 bits. */
bool gdb_parse_hex(const char **p, uint64_t *v);
/* 16 hex digits of 8 little-endian bytes, as in 'g'/'p' replies. */
bool gdb_parse_le64(const char *s, uint64_t *v);

#endif /* LINX_GDBSTUB_PACKET_H */
