/* SPDX-License-Identifier: MIT */
/*
 * The JSON profile reader's helpers (profile_int.h): where a value sits in
 * the text (a re-scan along the path: jansson keeps no positions), and
 * typed getters whose errors name that line and column.
 */
#include "samples/profile_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "structlint/error.h"

/* ---- locating a value in the text (for error positions) ------------ */

size_t slt_pj_skip_ws(const char *p, size_t n, size_t i)
{
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
			 p[i] == '\r'))
		i++;
	return i;
}

/* i at the opening quote; returns the index after the closing quote. */
static size_t skip_string(const char *p, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (p[i] == '\\')
			i++;
		else if (p[i] == '"')
			return i + 1;
	}
	return n;
}

static size_t skip_value(const char *p, size_t n, size_t i)
{
	if (i >= n)
		return n;
	if (p[i] == '"')
		return skip_string(p, n, i);
	if (p[i] == '{' || p[i] == '[') {
		size_t depth = 0;
		while (i < n) {
			char c = p[i];
			if (c == '"') {
				i = skip_string(p, n, i);
				continue;
			}
			if (c == '{' || c == '[')
				depth++;
			else if ((c == '}' || c == ']') && --depth == 0)
				return i + 1;
			i++;
		}
		return n;
	}
	while (i < n && !strchr(",}] \t\r\n", p[i]))
		i++;
	return i;
}

/* Byte offset of the value at path (the text is valid JSON: jansson
 * parsed it).  Stops at the deepest step it can follow. */
size_t slt_pj_locate(const struct pctx *pc)
{
	const char *p = pc->text;
	size_t n = pc->size, i = slt_pj_skip_ws(p, n, 0);
	for (size_t d = 0; d < pc->depth && i < n; d++) {
		const struct step *st = &pc->path[d];
		size_t start = i;
		if (st->key && p[i] == '{') {
			size_t klen = strlen(st->key);
			bool found = false;
			i = slt_pj_skip_ws(p, n, i + 1);
			while (i < n && p[i] == '"') {
				size_t kend = skip_string(p, n, i);
				bool match = kend - i == klen + 2 &&
					     memcmp(p + i + 1, st->key, klen) == 0;
				i = slt_pj_skip_ws(p, n, kend);
				if (i < n && p[i] == ':')
					i = slt_pj_skip_ws(p, n, i + 1);
				if (match) {
					found = true;
					break;
				}
				i = slt_pj_skip_ws(p, n, skip_value(p, n, i));
				if (i < n && p[i] == ',')
					i = slt_pj_skip_ws(p, n, i + 1);
			}
			if (!found)
				return start;
		} else if (!st->key && p[i] == '[') {
			i = slt_pj_skip_ws(p, n, i + 1);
			for (size_t k = 0; k < st->index && i < n; k++) {
				i = slt_pj_skip_ws(p, n, skip_value(p, n, i));
				if (i < n && p[i] == ',')
					i = slt_pj_skip_ws(p, n, i + 1);
			}
		} else {
			return start;
		}
	}
	return i < n ? i : n;
}

static void line_col(const char *p, size_t off, unsigned *line, unsigned *col)
{
	unsigned l = 1, c = 1;
	for (size_t i = 0; i < off; i++) {
		if (p[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

int slt_pj_fail_at(struct pctx *pc, size_t off, int code, const char *hint,
		   const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	unsigned line, col;
	line_col(pc->text, off, &line, &col);
	bool fresh = pc->err && pc->err->code == 0;
	slt_error_set_line(pc->err, code, pc->name, line, hint,
			   "column %u: %s", col, msg);
	if (fresh)
		pc->err->offset = (int64_t)off;
	return code;
}

void slt_pj_push_key(struct pctx *pc, const char *key)
{
	if (pc->depth < MAX_PATH)
		pc->path[pc->depth] = (struct step){ .key = key };
	pc->depth++;
}

void slt_pj_push_index(struct pctx *pc, size_t index)
{
	if (pc->depth < MAX_PATH)
		pc->path[pc->depth] = (struct step){ .key = NULL,
						     .index = index };
	pc->depth++;
}

void slt_pj_pop(struct pctx *pc)
{
	pc->depth--;
}

/* ---- typed values --------------------------------------------------- */

const char *slt_pj_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* Unsigned 64-bit value: integer >= 0, or a decimal / 0x-hex string. */
int slt_pj_u64(struct pctx *pc, const char *key, const json_t *v,
		   uint64_t *out)
{
	static const char hint[] = "write a non-negative integer, or a string "
				   "\"0x...\" / decimal for values above 2^63-1";
	if (json_is_integer(v)) {
		json_int_t x = json_integer_value(v);
		if (x < 0)
			return FAIL(pc, hint, "%s is negative (%" JSON_INTEGER_FORMAT ")",
				    key, x);
		*out = (uint64_t)x;
		return 0;
	}
	if (!json_is_string(v))
		return FAIL(pc, hint, "%s must be a number, not %s", key,
			    slt_pj_kind(v));
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);
	bool hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	size_t i = hex ? 2 : 0;
	if (len == i || len > 2 + 20)
		return FAIL(pc, hint, "%s: \"%.40s\" is not a number", key, s);
	uint64_t x = 0;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (hex && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (hex && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return FAIL(pc, hint, "%s: \"%.40s\" is not a number",
				    key, s);
		unsigned base = hex ? 16 : 10;
		if (x > (UINT64_MAX - d) / base)
			return FAIL(pc, hint, "%s: \"%.40s\" does not fit in 64 bits",
				    key, s);
		x = x * base + d;
	}
	*out = x;
	return 0;
}

int slt_pj_int(struct pctx *pc, const char *key, const json_t *v,
		   int64_t lo, int64_t hi, int64_t *out)
{
	if (!json_is_integer(v))
		return FAIL(pc, NULL, "%s must be an integer, not %s", key,
			    slt_pj_kind(v));
	json_int_t x = json_integer_value(v);
	if (x < lo || x > hi)
		return FAIL(pc, NULL, "%s = %" JSON_INTEGER_FORMAT
			    " is out of range %" PRId64 "..%" PRId64, key, x,
			    lo, hi);
	*out = x;
	return 0;
}

int slt_pj_str(struct pctx *pc, const char *key, const json_t *v,
		   bool nonempty, const char **out)
{
	if (!json_is_string(v))
		return FAIL(pc, NULL, "%s must be a string, not %s", key,
			    slt_pj_kind(v));
	size_t len = json_string_length(v);
	if (len > MAX_STRING)
		return FAIL(pc, NULL, "%s is %zu bytes long (at most %d)", key,
			    len, MAX_STRING);
	if (nonempty && len == 0)
		return FAIL(pc, NULL, "%s is empty", key);
	*out = json_string_value(v);
	return 0;
}

