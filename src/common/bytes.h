/* SPDX-License-Identifier: MIT */
/* A bounds-checked byte cursor over an in-memory section, with the readers
 * every DWARF parser here needs: fixed-size integers in the file's byte
 * order and LEB128 (DWARF 5 section 7.6, "Variable Length Data").
 *
 * A read past the end, or a LEB128 whose value does not fit in 64 bits,
 * sets `bad` and returns 0; once bad, every later read returns 0, so a
 * parser checks `bad` once after a run of reads.  LEB128 of any length is
 * accepted as long as the bits past 64 are only padding (zeros, or for
 * SLEB128 the sign), as the standard allows; cost follows the bytes read.
 * Header-only: these are the inner loops of the DIE reader. */
#ifndef SLT_COMMON_BYTES_H
#define SLT_COMMON_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes p[at, end); le: little-endian fixed-size values. */
struct slt_bytes {
	const uint8_t *p;
	size_t at, end;
	bool le, bad;
};

/* An n-byte unsigned integer (n <= 8). */
static inline uint64_t slt_bytes_fixed(struct slt_bytes *c, unsigned n)
{
	if (c->bad || c->at > c->end || c->end - c->at < n) {
		c->bad = true;
		return 0;
	}
	const uint8_t *b = c->p + c->at;
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)b[c->le ? i : n - 1 - i] << (8 * i);
	c->at += n;
	return v;
}

/* The LEB128 at c, unsigned or (sign) signed, as 64 bits. */
static inline uint64_t slt_bytes_leb(struct slt_bytes *c, bool sign)
{
	uint64_t v = 0;
	for (unsigned shift = 0; !c->bad; shift += 7) {
		if (c->at >= c->end) {
			c->bad = true;
			break;
		}
		uint8_t b = c->p[c->at++], pay = b & 0x7f;
		if (shift < 64)
			v |= (uint64_t)pay << shift;
		/* the bits at 64 and above may only repeat the value's top */
		uint8_t above = shift >= 64 ? pay : shift == 63 ? pay >> 1 : 0;
		uint8_t pad = sign && (v >> 63) ? (shift == 63 ? 0x3f : 0x7f) : 0;
		if (above != pad) {
			c->bad = true;
			break;
		}
		if (!(b & 0x80)) {
			if (sign && shift + 7 < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << (shift + 7);
			return v;
		}
	}
	return 0;
}

static inline uint64_t slt_bytes_uleb(struct slt_bytes *c)
{
	return slt_bytes_leb(c, false);
}

static inline int64_t slt_bytes_sleb(struct slt_bytes *c)
{
	return (int64_t)slt_bytes_leb(c, true);
}

/* Skips n bytes. */
static inline void slt_bytes_skip(struct slt_bytes *c, uint64_t n)
{
	if (c->bad || c->at > c->end || c->end - c->at < n)
		c->bad = true;
	else
		c->at += (size_t)n;
}

/* The initial length of a unit at c (DWARF 5 sections 7.2.2 and 7.4):
 * 4 bytes, or 0xffffffff and 8 bytes (*osz, the offset size, 4 or 8);
 * bad for the reserved values 0xfffffff0..0xfffffffe and for a unit that
 * runs past the end.  c is left on the first byte after the length. */
static inline uint64_t slt_bytes_unit_length(struct slt_bytes *c,
					     unsigned *osz)
{
	uint64_t len = slt_bytes_fixed(c, 4);
	*osz = 4;
	if (len >= 0xfffffff0u) {
		if (len != 0xffffffffu)
			c->bad = true;
		*osz = 8;
		len = slt_bytes_fixed(c, 8);
	}
	if (!c->bad && len > c->end - c->at)
		c->bad = true;
	return c->bad ? 0 : len;
}

/* The ULEB128 at p[*at, n): advances *at; false when it runs off the end
 * or does not fit in 64 bits (*at then unspecified). */
static inline bool slt_uleb128(const uint8_t *p, size_t n, size_t *at,
			       uint64_t *v)
{
	struct slt_bytes c = { p, *at, n, true, false };
	*v = slt_bytes_uleb(&c);
	*at = c.at;
	return !c.bad;
}

#endif
