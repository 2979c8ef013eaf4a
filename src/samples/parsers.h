/* SPDX-License-Identifier: MIT */
/*
 * The sample parsers, one entry per input format (internal).
 *
 * read.c holds the table (slt_samples_parsers[]).  To add a format, write
 * its detect and parse functions, declare them below and add one entry to
 * the table in read.c; nothing else changes.
 *
 * read.c gives every parser the whole input as one buffer: a regular file
 * is mmap'ed (the page cache, not the heap, holds it, so a parser that
 * walks it once keeps memory bounded), standard input or a pipe is read
 * into memory unless the entry has parse_stream, which then gets the
 * stream itself (pipe-mode perf.data).
 */
#ifndef SLT_SAMPLES_PARSERS_H
#define SLT_SAMPLES_PARSERS_H

#include <stddef.h>
#include <stdio.h>

#include "structlint/samples.h"

/* What every parse function gets: where to deliver, where to report. */
struct slt_parse_ctx {
	const char *name;              /* input name for messages */
	slt_sample_cb cb;
	void *cb_ctx;
	struct slt_samples_info *info; /* never NULL (read.c supplies one) */
	struct slt_error *err;         /* may be NULL */
};

struct slt_samples_parser {
	enum slt_samples_format format;
	const char *name;              /* as slt_samples_format_name() */
	/*
	 * How sure this format is, 0 (not this) to 100, from the first
	 * head_len bytes of the input (at most SLT_DETECT_BYTES).  The
	 * highest score wins; a tie goes to the earlier table entry.
	 */
	int (*detect)(const unsigned char *head, size_t head_len);
	/* Parse the whole input.  Returns 0, the callback's non-zero value
	 * or a negative SLT_E* (err filled). */
	int (*parse)(const struct slt_parse_ctx *pc, const unsigned char *data,
		     size_t size);
	/* Optional: parse from a stream (head = bytes already read from it).
	 * NULL: read.c reads the stream into memory and calls parse. */
	int (*parse_stream)(const struct slt_parse_ctx *pc, FILE *f,
			    const unsigned char *head, size_t head_len);
};

#define SLT_DETECT_BYTES 65536

extern const struct slt_samples_parser slt_samples_parsers[];
extern const size_t slt_samples_n_parsers;

/* c2c.c: `perf c2c report --stdio` */
int slt_c2c_detect(const unsigned char *head, size_t head_len);
int slt_c2c_parse(const struct slt_parse_ctx *pc, const unsigned char *data,
		  size_t size);

/* datatype.c: `perf report/mem report -s type,typeoff`, typecln,
 * `perf annotate --data-type` */
int slt_datatype_detect(const unsigned char *head, size_t head_len);
int slt_datatype_parse(const struct slt_parse_ctx *pc,
		       const unsigned char *data, size_t size);

/* perf_data.c: perf.data, file or pipe mode (pipe mode also streamed) */
int slt_perf_data_detect_head(const unsigned char *head, size_t head_len);
int slt_perf_data_parse(const struct slt_parse_ctx *pc,
			const unsigned char *data, size_t size);
int slt_perf_data_parse_stream(const struct slt_parse_ctx *pc, FILE *f,
			       const unsigned char *head, size_t head_len);

/* profile.c: JSON "structlint.profile/v1" (include/structlint/profile.h) */
int slt_profile_detect_head(const unsigned char *head, size_t head_len);
int slt_profile_parse_entry(const struct slt_parse_ctx *pc,
			    const unsigned char *data, size_t size);

#endif
