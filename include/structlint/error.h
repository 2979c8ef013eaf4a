/* SPDX-License-Identifier: MIT */
/*
 * structlint — error reporting shared by every stage.
 *
 * Every library function that can fail returns 0 on success or a negative
 * SLT_E* code and, when the caller passed a non-NULL struct slt_error, fills
 * it with what went wrong, where, and what to do.  Nothing below the CLI
 * prints or exits; the CLI turns an slt_error into one stderr line:
 *
 *     structlint: FILE:WHERE: MESSAGE (HINT)
 *
 * and exit code 2.
 */
#ifndef STRUCTLINT_ERROR_H
#define STRUCTLINT_ERROR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Negative return codes.  Stable: tools may test for them. */
enum slt_errcode {
	SLT_OK = 0,
	SLT_EUSAGE = -1,     /* bad argument or option value */
	SLT_EIO = -2,        /* file missing, unreadable, mmap failed */
	SLT_ENOTELF = -3,    /* not an ELF file and not raw BTF */
	SLT_ENODEBUG = -4,   /* ELF without the requested debug info */
	SLT_ECORRUPT = -5,   /* truncated or malformed ELF/DWARF/BTF/input */
	SLT_ENOTFOUND = -6,  /* type name not present */
	SLT_EDECLONLY = -7,  /* type only declared (no definition) */
	SLT_ENOMEM = -8,     /* allocation failed */
	SLT_EUNSUPPORTED = -9, /* valid input using a feature not handled */
};

/*
 * Where and what.  Filled by the failing function; owned by the caller
 * (fixed-size buffers, nothing to free).
 *   file:   the input file the problem is in ("" when none)
 *   offset: byte offset in that file, or -1 when unknown
 *   line:   1-based line for text inputs, 0 when not applicable
 *   message: what was wrong, lower case, no trailing period
 *   hint:   what to do about it ("" when nothing useful to say)
 */
struct slt_error {
	int code;
	char file[512];
	int64_t offset;
	unsigned line;
	char message[512];
	char hint[512];
};

/* Reset *err to "no error".  err may be NULL. */
void slt_error_clear(struct slt_error *err);

/*
 * Record an error and return code (so callers can write
 * `return slt_error_set(err, SLT_EIO, path, -1, hint, "fmt", ...)`).
 * err may be NULL.  file and hint may be NULL.  The first error set wins:
 * a later call on an err that already holds an error keeps the original
 * message (the root cause) and only returns code.
 */
int slt_error_set(struct slt_error *err, int code, const char *file,
		  int64_t offset, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Same as slt_error_set() but for line-oriented text inputs. */
int slt_error_set_line(struct slt_error *err, int code, const char *file,
		       unsigned line, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Copy the NUL-terminated string in (NULL: "") into out (size bytes, always
 * NUL-terminated when size > 0, truncated at a character boundary) with
 * every control byte (below 0x20, 0x7f, UTF-8-encoded C1 controls) and
 * every byte that is not valid UTF-8 written as the four characters \xNN.
 * slt_error_set*() store file, message and hint this way, so an error line
 * never carries terminal escape sequences or a line break taken from input.
 * Returns the length written.
 */
size_t slt_escape_controls(const char *in, char *out, size_t size);

/*
 * Format err as the single CLI line "FILE:WHERE: MESSAGE (HINT)" into buf
 * (always NUL-terminated, truncated to size).  Returns buf.
 */
char *slt_error_format(const struct slt_error *err, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
