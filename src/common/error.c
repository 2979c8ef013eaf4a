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

static int vset(struct slt_error *err, int code, const char *file,
		int64_t offset, unsigned line, const char *hint,
		const char *fmt, va_list ap)
{
	if (!err || err->code != 0)
		return code;
	err->code = code;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->offset = offset;
	err->line = line;
	snprintf(err->hint, sizeof(err->hint), "%s", hint ? hint : "");
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
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
