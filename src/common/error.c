/* SPDX-License-Identifier: MIT */
#include "structlint/error.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void slt_error_clear(struct slt_error *err)
{
	if (err) {
		memset(err, 0, sizeof(*err));
		err->offset = -1;
	}
}

/* Length of the valid UTF-8 sequence at s (1..4) that is not a C1
 * control (U+0080..U+009F), or 0. */
static size_t utf8_ok(const unsigned char *s)
{
	size_t n;
	uint32_t cp;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < 0xa0 || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

size_t slt_escape_controls(const char *in, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)(in ? in : "");
	size_t o = 0;
	if (!size)
		return 0;
	while (*s) {
		size_t n = *s >= 0x20 && *s < 0x7f ? 1 : *s >= 0x80 ? utf8_ok(s) : 0;
		if (n) {
			if (o + n >= size)
				break;
			memcpy(out + o, s, n);
			o += n;
			s += n;
		} else {
			if (o + 4 >= size)
				break;
			snprintf(out + o, 5, "\\x%02x", *s);
			o += 4;
			s++;
		}
	}
	out[o] = 0;
	return o;
}

static int vset(struct slt_error *err, int code, const char *file,
		int64_t offset, unsigned line, const char *hint,
		const char *fmt, va_list ap)
{
	char raw[sizeof(err->message)];
	if (!err || err->code != 0)
		return code;
	err->code = code;
	/* input bytes copied into a message (names, lines, paths) never reach
	 * the terminal raw: no escape sequence, no second line */
	slt_escape_controls(file, err->file, sizeof(err->file));
	err->offset = offset;
	err->line = line;
	slt_escape_controls(hint, err->hint, sizeof(err->hint));
	vsnprintf(raw, sizeof(raw), fmt, ap);
	slt_escape_controls(raw, err->message, sizeof(err->message));
	return code;
}

int slt_error_set(struct slt_error *err, int code, const char *file,
		  int64_t offset, const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(err, code, file, offset, 0, hint, fmt, ap);
	va_end(ap);
	return code;
}

int slt_error_set_line(struct slt_error *err, int code, const char *file,
		       unsigned line, const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(err, code, file, -1, line, hint, fmt, ap);
	va_end(ap);
	return code;
}

char *slt_error_format(const struct slt_error *err, char *buf, size_t size)
{
	char where[600] = "";
	if (err->file[0] && err->line)
		snprintf(where, sizeof(where), "%s:%u: ", err->file, err->line);
	else if (err->file[0] && err->offset >= 0)
		snprintf(where, sizeof(where), "%s:0x%" PRIx64 ": ", err->file,
			 (uint64_t)err->offset);
	else if (err->file[0])
		snprintf(where, sizeof(where), "%s: ", err->file);
	if (err->hint[0])
		snprintf(buf, size, "%s%s (%s)", where, err->message, err->hint);
	else
		snprintf(buf, size, "%s%s", where, err->message);
	return buf;
}
