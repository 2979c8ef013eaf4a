/* SPDX-License-Identifier: MIT */
/*
 * The sample parsers, one entry per input format (internal).
 *
 * read.c holds the table (slt_samples_parsers[]).  To add a format, write
 * its detect and parse functions, declare them below and add one entry to
 * the table in read.c; nothing else changes.
 *
 * read.c gives every parser the whole input as one buffer: a regular file
 * is mmap'ed (the page cache, not the heap, holds it; but every page the
 * parser touches stays in its resident set until the unmap, so a 10^7
 * sample perf.data walked through a map costs ~800 MB of RSS), standard
 * input or a pipe is read into memory unless the entry has parse_stream,
 * which then gets the stream itself (pipe-mode perf.data).  An entry with
 * parse_fd gets a regular file as its open descriptor instead and reads
 * it in fixed-size pieces, so its memory does not grow with the file.
 */
#ifndef SLT_SAMPLES_PARSERS_H
#define SLT_SAMPLES_PARSERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "samples/text.h"
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
	/* Optional: parse a regular file from fd (open, positioned anywhere,
	 * not closed here; read with pread).  NULL: read.c maps the file and
	 * calls parse.  Same returns as parse. */
	int (*parse_fd)(const struct slt_parse_ctx *pc, int fd);
};

#define SLT_DETECT_BYTES 65536

/*
 * Count one sampled access into s (loads, stores, hitm_*, peer_*, cycles), as
 * perf c2c and perf mem do (tools/perf/util/mem-events.c): d is the
 * decoded perf_mem_data_src, or NULL when the sample has none.  A store is
 * a store; everything else is counted as a load, accesses of unknown kind
 * included (page faults carry no data_src op): the return value is true
 * for those, so the caller can say how many there were.  weight (load
 * latency, cycles) counts for real loads only; has_weight false: none.
 * Shared by the perf.data and perf script parsers.
 */
static inline bool slt_sample_count_access(struct slt_sample *s,
					   const struct slt_data_src *d,
					   bool has_weight, uint64_t weight)
{
	bool unknown = false;
	if (d && d->store) {
		s->stores = 1;
	} else {
		s->loads = 1;
		if (!d || !d->load)
			unknown = true;
		else if (has_weight)
			s->cycles = weight;
	}
	if (d && d->hitm)
		*(d->remote ? &s->hitm_remote : &s->hitm_local) = 1;
	if (d && d->peer)
		*(d->remote ? &s->peer_remote : &s->peer_local) = 1;
	return unknown;
}

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

/*
 * datatype.c, shared with perfmem.c: the "Samples: 26K of event 'E'" header
 * of a perf report block (body = the text after '#', trimmed).  *total gets
 * the sample count (perf's convert_unit() abbreviation "26K" read as the
 * middle of its range, 26500; 0 when unreadable), event the event name (the
 * group leader's with --group), NUL-terminated, truncated to event_size.
 */
void slt_perf_samples_header(struct slt_span body, uint64_t *total, char *event,
			     size_t event_size);
/* Does the event name count stores ("cpu/mem-stores/P", "mem-stores")?
 * perf's report tables do not say per row; everything else is loads. */
bool slt_perf_event_is_store(const char *event);

/* perfmem.c: `perf mem report --stdio`, `perf report --mem-mode --stdio`
 * tables (and perf report --header-only of a perf mem recording, which is
 * read and refused: no samples in it) */
int slt_perfmem_detect(const unsigned char *head, size_t head_len);
int slt_perfmem_parse(const struct slt_parse_ctx *pc, const unsigned char *data,
		      size_t size);

/* perf_data.c: perf.data, file or pipe mode (pipe mode also streamed) */
int slt_perf_data_detect_head(const unsigned char *head, size_t head_len);
int slt_perf_data_parse(const struct slt_parse_ctx *pc,
			const unsigned char *data, size_t size);
int slt_perf_data_parse_stream(const struct slt_parse_ctx *pc, FILE *f,
			       const unsigned char *head, size_t head_len);
int slt_perf_data_parse_fd(const struct slt_parse_ctx *pc, int fd);

/* perf_script.c: `perf script -F ...` text with addr */
int slt_perf_script_detect(const unsigned char *head, size_t head_len);
int slt_perf_script_parse(const struct slt_parse_ctx *pc,
			  const unsigned char *data, size_t size);

/* profile.c: JSON "structlint.profile/v1" (include/structlint/profile.h) */
int slt_profile_detect_head(const unsigned char *head, size_t head_len);
int slt_profile_parse_entry(const struct slt_parse_ctx *pc,
			    const unsigned char *data, size_t size);

#endif
