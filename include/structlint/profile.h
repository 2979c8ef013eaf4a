/* SPDX-License-Identifier: MIT */
/*
 * structlint — the JSON access profile "structlint.profile/v1": reader and
 * writer.  The format itself is documented at the top of
 * src/samples/profile.c (and in man/structlint.1).
 *
 * Reading normally goes through slt_samples_read() with
 * SLT_SAMPLES_PROFILE (include/structlint/samples.h); the functions below
 * are the same parser, callable directly.  Writing turns any stream of
 * struct slt_sample records (from any parser, or built by the engine) into
 * a profile that reads back as the same records, in the same order.
 */
#ifndef STRUCTLINT_PROFILE_H
#define STRUCTLINT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "structlint/error.h"
#include "structlint/samples.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The schema string every profile carries in its "schema" key. */
#define SLT_PROFILE_SCHEMA "structlint.profile/v1"

/* Largest profile accepted, bytes (the document is parsed whole). */
#define SLT_PROFILE_MAX_BYTES ((size_t)256 << 20)

/*
 * True when the first bytes of a buffer look like a structlint profile: a
 * JSON object (after optional whitespace / UTF-8 BOM) whose first 4096
 * bytes contain the string "structlint.profile/".  Cheap; for the format
 * dispatch table.
 */
bool slt_profile_detect(const void *data, size_t size);

/*
 * Parse a profile held in memory (size bytes; no NUL needed), calling cb
 * once per record in document order.  name is used in error messages.
 * info may be NULL; when given it is filled (format, records, samples,
 * cacheline_size, detail = the "tool" string).  Returns 0, the callback's
 * non-zero value, or a negative SLT_E* code with err filled: SLT_ECORRUPT
 * for malformed JSON or a value of the wrong type/range (err->line is the
 * 1-based JSON line, err->offset the byte offset, and the message starts
 * with "column N:"), SLT_EUNSUPPORTED for another schema version,
 * SLT_ENOMEM.  Record pointers (type_name, member, symbol, ...) are valid
 * only during the callback.
 */
int slt_profile_parse(const void *data, size_t size, const char *name,
		      slt_sample_cb cb, void *ctx,
		      struct slt_samples_info *info, struct slt_error *err);

/* Same for a file ("-" = standard input), read whole up to
 * SLT_PROFILE_MAX_BYTES.  SLT_EIO when it cannot be read, SLT_ECORRUPT
 * when larger than the limit. */
int slt_profile_read(const char *path, slt_sample_cb cb, void *ctx,
		     struct slt_samples_info *info, struct slt_error *err);

/* A writer collects records and writes one profile document. */
struct slt_profile_writer;

struct slt_profile_writer_opts {
	unsigned cacheline_size;  /* bytes, written as "cacheline_size";
				     0 = not written */
	const char *tool;         /* "tool" string (e.g. "structlint 0.1.0,
				     from perf c2c"), NULL = not written;
				     copied */
	bool pretty;              /* indent the output (2 spaces) */
};

/*
 * New writer that will write to f (borrowed: the caller opens and closes
 * it) at slt_profile_writer_finish().  name is used in error messages.
 * opts may be NULL.  Returns 0 and *out, or SLT_ENOMEM.  Memory grows with
 * the records added (the document is built, then written once).
 */
int slt_profile_writer_new(FILE *f, const char *name,
			   const struct slt_profile_writer_opts *opts,
			   struct slt_profile_writer **out,
			   struct slt_error *err);

/*
 * Add one record (usable as an slt_sample_cb with the writer as ctx).
 * Records with a type_name and SLT_SAMPLE_TYPE and/or SLT_SAMPLE_MEMBER go
 * to "structs", consecutive ones of the same struct and member/offset
 * becoming the rows of one entry; all others go to "samples".  Returns 0,
 * SLT_ENOMEM, or SLT_EUSAGE (SLT_SAMPLE_MEMBER with member NULL; a string
 * over 64 KiB); the first error is kept and returned again by finish.
 */
int slt_profile_writer_add(void *writer, const struct slt_sample *s);

/*
 * Write the document to f, flush it and free the writer (always, even on
 * error).  Returns 0, the first error of writer_add, or SLT_EIO when the
 * write fails, with err filled.
 */
int slt_profile_writer_finish(struct slt_profile_writer *w,
			      struct slt_error *err);

/* Free a writer without writing.  NULL is a no-op. */
void slt_profile_writer_free(struct slt_profile_writer *w);

#ifdef __cplusplus
}
#endif
#endif
