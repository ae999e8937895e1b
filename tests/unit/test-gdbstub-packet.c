/*
 * gdb stub packet layer (gdbstub/packet.c): the receive state machine on
 * good, malformed, oversized, bad-checksum, escaped and run-length encoded
 * input, the reply framing, and the hex helpers.  The receiver must never
 * write past its buffer or hand out a packet that was not sent as one,
 * whatever bytes arrive (the random-input test checks that under ASan).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gdbstub/packet.h"

#define RANDOM_BYTES 2000000
#define RANDOM_SEED 12345u

static GdbRx rx;

/* Feed @n bytes; returns the last event that was not GDB_RX_NONE. */
static GdbRxEvent feed(const void *data, size_t n)
{
    const uint8_t *p = data;
    GdbRxEvent last = GDB_RX_NONE;

    for (size_t i = 0; i < n; i++) {
        GdbRxEvent e = gdb_rx_byte(&rx, p[i]);
        if (e != GDB_RX_NONE) {
            last = e;
        }
    }
    return last;
}

static GdbRxEvent feed_str(const char *s)
{
    return feed(s, strlen(s));
}

static uint8_t sum_of(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint8_t s = 0;

    for (size_t i = 0; i < n; i++) {
        s += p[i];
    }
    return s;
}

/* "$body#xx" with the right checksum. */
static GdbRxEvent feed_packet(const void *body, size_t n)
{
    char tail[4];

    feed("$", 1);
    feed(body, n);
    snprintf(tail, sizeof(tail), "#%02x", sum_of(body, n));
    return feed(tail, 3);
}

static int setup(void **state)
{
    gdb_rx_init(&rx);
    return 0;
}

static void test_good_packet(void **state)
{
    assert_int_equal(feed_str("$g#67"), GDB_RX_PACKET);
    assert_int_equal(rx.len, 1);
    assert_string_equal((char *)rx.buf, "g");
    /* Upper-case checksum digits are fine too. */
    assert_int_equal(feed_str("$OK#9A"), GDB_RX_PACKET);
    assert_string_equal((char *)rx.buf, "OK");
    /* An empty packet. */
    assert_int_equal(feed_str("$#00"), GDB_RX_PACKET);
    assert_int_equal(rx.len, 0);
    assert_int_equal(rx.buf[0], 0);
}

static void test_bad_checksum(void **state)
{
    assert_int_equal(feed_str("$g#68"), GDB_RX_BAD_CHECKSUM);
    assert_int_equal(rx.len, 0);
    assert_int_equal(rx.state, GDB_RX_IDLE);
    /* Non-hex checksum digits. */
    assert_int_equal(feed_str("$g#6z"), GDB_RX_BAD_CHECKSUM);
    assert_int_equal(feed_str("$g#z7"), GDB_RX_BAD_CHECKSUM);
    /* The receiver recovers: the resend is fine. */
    assert_int_equal(feed_str("$g#67"), GDB_RX_PACKET);
}

static void test_bytes_between_packets(void **state)
{
    assert_int_equal(gdb_rx_byte(&rx, '+'), GDB_RX_ACK);
    assert_int_equal(gdb_rx_byte(&rx, '-'), GDB_RX_NACK);
    assert_int_equal(gdb_rx_byte(&rx, 0x03), GDB_RX_INTERRUPT);
    assert_int_equal(feed_str("garbage\r\n#ab"), GDB_RX_NONE);
    /* Inside a packet, 0x03, '+' and '-' are data. */
    uint8_t body[] = { 'X', 0x03, '+', '-' };
    assert_int_equal(feed_packet(body, sizeof(body)), GDB_RX_PACKET);
    assert_int_equal(rx.len, sizeof(body));
    assert_memory_equal(rx.buf, body, sizeof(body));
}

static void test_dollar_restarts(void **state)
{
    /* A packet that lost its end is dropped by the next '$'. */
    assert_int_equal(feed_str("$m1000,4$g#67"), GDB_RX_PACKET);
    assert_string_equal((char *)rx.buf, "g");
    /* Also where a run-length count is expected. */
    assert_int_equal(feed_str("$0*$g#67"), GDB_RX_PACKET);
    assert_string_equal((char *)rx.buf, "g");
}

static void test_escapes(void **state)
{
    /* }\x03 = '#', }\x04 = '$', }] = '}', }\x0a = '*' */
    const char wire[] = "X}\x03}\x04}]}\x0a";
    assert_int_equal(feed_packet(wire, strlen(wire)), GDB_RX_PACKET);
    assert_int_equal(rx.len, 5);
    assert_memory_equal(rx.buf, "X#$}*", 5);
}

static void test_run_length(void **state)
{
    /* "0* " = '0' and 3 more; "x*~" = 'x' and 97 more. */
    assert_int_equal(feed_packet("a0* b", 5), GDB_RX_PACKET);
    assert_string_equal((char *)rx.buf, "a0000b");
    assert_int_equal(feed_packet("x*~", 3), GDB_RX_PACKET);
    assert_int_equal(rx.len, 98);
    for (unsigned i = 0; i < 98; i++) {
        assert_int_equal(rx.buf[i], 'x');
    }
    /* Malformed: nothing to repeat, a count below ' ' or above '~'. */
    assert_int_equal(feed_packet("*!", 2), GDB_RX_BAD_CHECKSUM);
    assert_int_equal(feed_packet("a*\x1f", 3), GDB_RX_BAD_CHECKSUM);
    assert_int_equal(feed_packet("a*\x7f", 3), GDB_RX_BAD_CHECKSUM);
    /* Repeating an escaped byte repeats the decoded byte. */
    assert_int_equal(feed_packet("}\x03* ", 4), GDB_RX_PACKET);
    assert_string_equal((char *)rx.buf, "####");
}

static void test_oversized(void **state)
{
    uint8_t *body = malloc(GDB_MAX_PACKET + 1);

    memset(body, 'a', GDB_MAX_PACKET + 1);
    /* Exactly the limit is fine. */
    assert_int_equal(feed_packet(body, GDB_MAX_PACKET), GDB_RX_PACKET);
    assert_int_equal(rx.len, GDB_MAX_PACKET);
    assert_int_equal(rx.buf[GDB_MAX_PACKET], 0);
    /* One more byte: oversized, nothing handed out. */
    assert_int_equal(feed_packet(body, GDB_MAX_PACKET + 1), GDB_RX_OVERSIZED);
    assert_int_equal(rx.len, 0);
    /* Oversized through run-length encoding. */
    char rle[] = "a*~";
    gdb_rx_byte(&rx, '$');
    uint8_t s = 0;
    for (unsigned i = 0; i < GDB_MAX_PACKET / 98 + 2; i++) {
        feed(rle, 3);
        s += sum_of(rle, 3);
    }
    char tail[4];
    snprintf(tail, sizeof(tail), "#%02x", s);
    assert_int_equal(feed(tail, 3), GDB_RX_OVERSIZED);
    /* A bad checksum wins over the size: gdb sends it again. */
    feed("$", 1);
    feed(body, GDB_MAX_PACKET + 1);
    snprintf(tail, sizeof(tail), "#%02x", (uint8_t)(sum_of(body, GDB_MAX_PACKET + 1) + 1));
    assert_int_equal(feed(tail, 3), GDB_RX_BAD_CHECKSUM);
    /* And the next packet is fine. */
    assert_int_equal(feed_str("$g#67"), GDB_RX_PACKET);
    free(body);
}

static void test_frame_text(void **state)
{
    GString *out = g_string_new("");

    gdb_frame_text(out, "OK", 2);
    assert_string_equal(out->str, "$OK#9a");
    g_string_truncate(out, 0);
    gdb_frame_text(out, "", 0);
    assert_string_equal(out->str, "$#00");
    g_string_free(out, TRUE);
}

static void test_frame_binary_round_trip(void **state)
{
    uint8_t data[512];
    GString *out = g_string_new("");

    for (unsigned i = 0; i < sizeof(data); i++) {
        data[i] = (uint8_t)(i * 7 + (i >> 8));
    }
    data[0] = '$';
    data[1] = '#';
    data[2] = '}';
    data[3] = '*';
    gdb_frame_binary(out, data, sizeof(data));
    /* No unescaped special byte inside the frame. */
    for (gsize i = 1; i + 3 < out->len; i++) {
        uint8_t c = (uint8_t)out->str[i];
        assert_true(c != '$' && c != '#' && c != '*');
        if (c == '}') {
            i++;
        }
    }
    assert_int_equal(feed(out->str, out->len), GDB_RX_PACKET);
    assert_int_equal(rx.len, sizeof(data));
    assert_memory_equal(rx.buf, data, sizeof(data));
    g_string_free(out, TRUE);
}

static void test_hex(void **state)
{
    const char *p = "1f,rest";
    uint64_t v = 0;
    uint8_t b[4];
    GString *out = g_string_new("");

    assert_true(gdb_parse_hex(&p, &v));
    assert_int_equal(v, 0x1f);
    assert_string_equal(p, ",rest");
    p = "ffffffffffffffff";
    assert_true(gdb_parse_hex(&p, &v));
    assert_true(v == UINT64_MAX);
    p = "10000000000000000"; /* 17 digits: too big */
    assert_false(gdb_parse_hex(&p, &v));
    assert_string_equal(p, "10000000000000000");
    p = ",";
    assert_false(gdb_parse_hex(&p, &v));
    assert_true(gdb_hex_decode("DEADbeef", b, 4));
    assert_int_equal(b[0], 0xde);
    assert_int_equal(b[3], 0xef);
    assert_false(gdb_hex_decode("dead", b, 4)); /* short */
    assert_false(gdb_hex_decode("de:d", b, 2));
    assert_true(gdb_parse_le64("0100000000000080", &v));
    assert_true(v == UINT64_C(0x8000000000000001));
    assert_false(gdb_parse_le64("01000000", &v));
    gdb_hex_append_le64(out, UINT64_C(0x1122334455667788));
    assert_string_equal(out->str, "8877665544332211");
    assert_int_equal(gdb_hex_digit('g'), -1);
    assert_int_equal(gdb_hex_digit('F'), 15);
    g_string_free(out, TRUE);
}

/* Random bytes (biased towards the protocol's special bytes): the state
 * machine never overruns its buffer, and every packet it returns is
 * NUL-terminated and within the limit. */
static void test_random_input(void **state)
{
    static const uint8_t special[] = { '$', '#', '}', '*', '+', '-', 0x03, '0', 'a', ' ' };
    unsigned seed = RANDOM_SEED;
    unsigned packets = 0;

    for (unsigned i = 0; i < RANDOM_BYTES; i++) {
        unsigned r = rand_r(&seed);
        uint8_t c = (r & 3) == 0 ? special[(r >> 2) % sizeof(special)] : (uint8_t)(r >> 8);
        GdbRxEvent e = gdb_rx_byte(&rx, c);
        assert_true(rx.len <= GDB_MAX_PACKET);
        if (e == GDB_RX_PACKET) {
            assert_int_equal(rx.buf[rx.len], 0);
            packets++;
        }
    }
    /* Some random packets do get through (1 in 256 checksums match). */
    assert_true(packets > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_good_packet, setup),
        cmocka_unit_test_setup(test_bad_checksum, setup),
        cmocka_unit_test_setup(test_bytes_between_packets, setup),
        cmocka_unit_test_setup(test_dollar_restarts, setup),
        cmocka_unit_test_setup(test_escapes, setup),
        cmocka_unit_test_setup(test_run_length, setup),
        cmocka_unit_test_setup(test_oversized, setup),
        cmocka_unit_test_setup(test_frame_text, setup),
        cmocka_unit_test_setup(test_frame_binary_round_trip, setup),
        cmocka_unit_test_setup(test_hex, setup),
        cmocka_unit_test_setup(test_random_input, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
