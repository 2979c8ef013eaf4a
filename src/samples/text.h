/* SPDX-License-Identifier: MIT */
/*
 * Line reader and column tokenizer for the text sample formats (perf c2c,
 * data-type profiles, perf script).  Internal.
 *
 * Everything works on a (pointer, length) view of a caller-owned buffer;
 * nothing is copied or NUL-terminated, and no function reads outside
 * [begin, end).  Line numbers are 1-based, byte offsets 0-based from the
 * start of the buffer, for slt_error.
 */
#ifndef SLT_SAMPLES_TEXT_H
#define SLT_SAMPLES_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A view of bytes [p, p + n); not NUL-terminated. */
struct slt_span {
	const char *p;
	size_t n;
};

/* Sequential line reader over a buffer. */
struct slt_text {
	const char *begin, *cur, *end;
	unsigned line;          /* number of the line last returned */
};

void slt_text_init(struct slt_text *t, const void *data, size_t size);
/*
 * Next line without its "\n" or "\r\n" (a lone trailing "\r" is dropped
 * too).  Returns false at the end.  *off gets the line's byte offset (may
 * be NULL).  A NUL byte inside a line is kept as data.
 */
bool slt_text_next(struct slt_text *t, struct slt_span *line, size_t *off);

/* Whitespace = space, tab, \r, \v, \f. */
bool slt_text_isspace(char c);
/* Strip leading/trailing whitespace. */
struct slt_span slt_span_trim(struct slt_span s);
/* Does s start with / contain the NUL-terminated string lit? */
bool slt_span_starts(struct slt_span s, const char *lit);
bool slt_span_contains(struct slt_span s, const char *lit);
/* Is s exactly lit? */
bool slt_span_eq(struct slt_span s, const char *lit);

/*
 * Next whitespace-separated token of *rest; advances *rest past it.
 * Returns false (tok empty) when only whitespace is left.
 */
bool slt_tok_next(struct slt_span *rest, struct slt_span *tok);

/* Number parsers: the whole token must be the number.  Return false on
 * syntax error or overflow (UINT64_MAX). */
bool slt_parse_u64(struct slt_span tok, uint64_t *v);      /* decimal */
bool slt_parse_hex(struct slt_span tok, uint64_t *v);      /* 0x... */
bool slt_parse_uint(struct slt_span tok, uint64_t *v);     /* 0x... or dec */
/*
 * A percentage "42.86%" (the '%' required when need_pct) as hundredths
 * of a percent (4286); more than two decimals are truncated.  Values up
 * to 1000000.00% are accepted.
 */
bool slt_parse_pct(struct slt_span tok, bool need_pct, uint32_t *centi);

/*
 * round(centi / 10000 * total), i.e. a count from a percentage printed
 * with two decimals (half up).  Exact 128-bit arithmetic, saturating.
 */
uint64_t slt_pct_of(uint32_t centi, uint64_t total);

/* Saturating a + b and a * b. */
uint64_t slt_sat_add(uint64_t a, uint64_t b);
uint64_t slt_sat_mul(uint64_t a, uint64_t b);

/*
 * Mail quoting: a report pasted into a reply on a mailing list has "> ",
 * ">> " or "> > " before every line.  The quote prefix of a line is its
 * run of '>' (each may be followed by one space before the next '>') and
 * one space after the last; its length, 0 for an unquoted line.
 */
size_t slt_quote_prefix(struct slt_span line);
/*
 * Is data[0..n) mail-quoted: at least two lines with text, and at least
 * three quarters of them quoted (a reply's "On ... wrote:" lines are
 * not)?  A last line cut short (a head of the input) counts like any.
 */
bool slt_text_quoted(const char *data, size_t n);
/*
 * Copy data[0..n) into *out (malloc()ed, *out_n bytes) without each line's
 * quote prefix; lines stay where they were (line numbers hold), unquoted
 * lines are copied as they are.  *n_quoted gets the lines stripped.
 * 0, or -1 when out of memory.
 */
int slt_text_unquote(const char *data, size_t n, char **out, size_t *out_n,
		     uint64_t *n_quoted);

/* Copy s into buf (size bytes, NUL-terminated, truncated). */
void slt_span_copy(struct slt_span s, char *buf, size_t size);

#endif
