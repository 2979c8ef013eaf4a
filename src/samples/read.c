/* SPDX-License-Identifier: MIT */
/*
 * slt_samples_read / slt_samples_read_mem: open the input, detect its
 * format and hand it to the parser from the table below (parsers.h).
 */
#include "samples/parsers.h"
#include "samples/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* One entry per format; the other parsers add theirs here. */
const struct slt_samples_parser slt_samples_parsers[] = {
	{ SLT_SAMPLES_C2C, "c2c", slt_c2c_detect, slt_c2c_parse, NULL, NULL },
	{ SLT_SAMPLES_DATATYPE, "datatype", slt_datatype_detect,
	  slt_datatype_parse, NULL, NULL },
	{ SLT_SAMPLES_PERF_DATA, "perf.data", slt_perf_data_detect_head,
	  slt_perf_data_parse, slt_perf_data_parse_stream,
	  slt_perf_data_parse_fd },
	{ SLT_SAMPLES_PERF_SCRIPT, "perf-script", slt_perf_script_detect,
	  slt_perf_script_parse, NULL, NULL },
	{ SLT_SAMPLES_PROFILE, "profile", slt_profile_detect_head,
	  slt_profile_parse_entry, NULL, NULL },
	{ SLT_SAMPLES_PERF_MEM, "perf-mem", slt_perfmem_detect,
	  slt_perfmem_parse, NULL, NULL },
};
const size_t slt_samples_n_parsers =
	sizeof(slt_samples_parsers) / sizeof(slt_samples_parsers[0]);

/* Names of every format, also those whose parser is not in the table. */
static const char *const format_names[] = {
	[SLT_SAMPLES_AUTO] = "auto",
	[SLT_SAMPLES_C2C] = "c2c",
	[SLT_SAMPLES_DATATYPE] = "datatype",
	[SLT_SAMPLES_PERF_DATA] = "perf.data",
	[SLT_SAMPLES_PERF_SCRIPT] = "perf-script",
	[SLT_SAMPLES_PROFILE] = "profile",
	[SLT_SAMPLES_PERF_MEM] = "perf-mem",
};
#define N_FORMATS (sizeof(format_names) / sizeof(format_names[0]))

const char *slt_samples_format_name(enum slt_samples_format f)
{
	if ((unsigned)f < N_FORMATS && format_names[f])
		return format_names[f];
	return "unknown";
}

int slt_samples_format_parse(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < N_FORMATS; i++)
		if (format_names[i] && strcmp(name, format_names[i]) == 0)
			return (int)i;
	return -1;
}

static const char accepted_hint[] =
	"accepted: perf c2c report --stdio, perf mem report --stdio, "
	"perf report -s type,typeoff / perf annotate --data-type, perf.data, "
	"perf script, structlint.profile/v1 JSON; name one with --samples-format";

static const struct slt_samples_parser *find_parser(enum slt_samples_format f)
{
	for (size_t i = 0; i < slt_samples_n_parsers; i++)
		if (slt_samples_parsers[i].format == f)
			return &slt_samples_parsers[i];
	return NULL;
}

static const struct slt_samples_parser *
choose(enum slt_samples_format fmt, const unsigned char *head, size_t n,
       const char *name, struct slt_error *err)
{
	if (fmt != SLT_SAMPLES_AUTO) {
		const struct slt_samples_parser *p = find_parser(fmt);
		if (!p)
			slt_error_set(err, SLT_EUNSUPPORTED, name, -1, accepted_hint,
				      "no parser for sample format '%s' in this build",
				      slt_samples_format_name(fmt));
		return p;
	}
	const struct slt_samples_parser *best = NULL;
	int best_score = 0;
	for (size_t i = 0; i < slt_samples_n_parsers; i++) {
		int s = slt_samples_parsers[i].detect(head, n);
		if (s > best_score) {
			best_score = s;
			best = &slt_samples_parsers[i];
		}
	}
	if (!best && !n) {
		slt_error_set(err, SLT_EUSAGE, name, -1, accepted_hint, "empty input");
	} else if (!best) {
		/* name the first line with text, and show its start */
		struct slt_text t;
		struct slt_span l = { "", 0 };
		slt_text_init(&t, head, n);
		while (slt_text_next(&t, &l, NULL) && !slt_span_trim(l).n)
			;
		char first[48];
		slt_span_copy(slt_span_trim(l), first, sizeof(first));
		slt_error_set_line(err, SLT_EUSAGE, name, t.line ? t.line : 1, accepted_hint,
				   "sample format not recognised from its first line with text '%s%s'",
				   first, slt_span_trim(l).n >= sizeof(first) ? "..." : "");
	}
	return best;
}

/*
 * NUL bytes in a text format: a run of them to the end of the input (a
 * preallocated or zero-padded file) is cut off and counted in
 * info->nul_tail; one with text after it means the input is not text:
 * refused with its line and byte offset.  0 or SLT_ECORRUPT.
 */
static int text_nul(const char *name, const char *data, size_t *size,
		    struct slt_samples_info *info, struct slt_error *err)
{
	const char *z = memchr(data, 0, *size);
	if (!z)
		return 0;
	size_t at = (size_t)(z - data);
	const char *q = z;
	while (q < data + *size && !*q)
		q++;
	if (q == data + *size) {
		info->nul_tail = *size - at;
		*size = at;
		return 0;
	}
	unsigned line = 1;
	for (const char *c = data; (c = memchr(c, '\n', (size_t)(z - c))); c++)
		line++;
	slt_error_set(err, SLT_ECORRUPT, name, (int64_t)at,
		      "give the text that perf printed; a binary file is not a text profile",
		      "NUL byte in %s text (byte offset %zu)",
		      slt_samples_format_name(info->format), at);
	if (err)
		err->line = line;
	return SLT_ECORRUPT;
}

static int run(const struct slt_samples_parser *p, const char *name,
	       const void *data, size_t size, slt_sample_cb cb, void *ctx,
	       struct slt_samples_info *info, struct slt_error *err)
{
	struct slt_samples_info local;
	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	info->format = p->format;
	if (p->format != SLT_SAMPLES_PERF_DATA) {
		int rc = text_nul(name, data, &size, info, err);
		if (rc)
			return rc;
	}
	struct slt_parse_ctx pc = { name, cb, ctx, info, err };
	return p->parse(&pc, data, size);
}

/* Is this text input mail-quoted ("> " before its lines)?  Never for a
 * perf.data asked for by name; detected from the head. */
static bool quoted(enum slt_samples_format fmt, const void *head, size_t n)
{
	return fmt != SLT_SAMPLES_PERF_DATA && head && slt_text_quoted(head, n);
}

int slt_samples_read_mem(const void *data, size_t size, const char *name,
			 enum slt_samples_format fmt, slt_sample_cb cb,
			 void *ctx, struct slt_samples_info *info,
			 struct slt_error *err)
{
	if (!name)
		name = "<memory>";
	if (!cb || (!data && size))
		return slt_error_set(err, SLT_EUSAGE, name, -1, NULL,
				     "no callback or no data");
	if (info)
		memset(info, 0, sizeof(*info));
	size_t n = size < SLT_DETECT_BYTES ? size : SLT_DETECT_BYTES;
	char *plain = NULL;
	uint64_t n_quoted = 0;
	/* a report quoted in a mail reply: parsed without the quote
	 * prefixes, its lines where they were */
	if (quoted(fmt, data, n)) {
		if (slt_text_unquote(data, size, &plain, &size, &n_quoted))
			return slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
		data = plain;
		n = size < SLT_DETECT_BYTES ? size : SLT_DETECT_BYTES;
	}
	const struct slt_samples_parser *p = choose(fmt, data, n, name, err);
	int rc = p ? run(p, name, data ? data : "", size, cb, ctx, info, err)
		   : err && err->code ? err->code : SLT_EUSAGE;
	if (info)
		info->quoted_lines = n_quoted;
	free(plain);
	return rc;
}

/* Read all of f into a malloc'ed buffer, after the head already read. */
static int slurp(FILE *f, unsigned char **buf, size_t *size, size_t have,
		 const char *name, struct slt_error *err)
{
	size_t cap = *size;
	for (;;) {
		if (have == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			unsigned char *nb = ncap > cap ? realloc(*buf, ncap) : NULL;
			if (!nb)
				return slt_error_set(err, SLT_ENOMEM, name, (int64_t)have,
						     NULL, "out of memory reading input");
			*buf = nb;
			cap = ncap;
		}
		size_t r = fread(*buf + have, 1, cap - have, f);
		have += r;
		if (r == 0) {
			if (ferror(f))
				return slt_error_set(err, SLT_EIO, name, (int64_t)have,
						     NULL, "read error: %s", strerror(errno));
			break;
		}
	}
	*size = have;
	return 0;
}

static int read_stream(FILE *f, const char *name, enum slt_samples_format fmt,
		       slt_sample_cb cb, void *ctx, struct slt_samples_info *info,
		       struct slt_error *err)
{
	unsigned char *buf = malloc(SLT_DETECT_BYTES);
	if (!buf)
		return slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
	size_t head = 0, r;
	while (head < SLT_DETECT_BYTES &&
	       (r = fread(buf + head, 1, SLT_DETECT_BYTES - head, f)) > 0)
		head += r;
	if (ferror(f)) {
		free(buf);
		return slt_error_set(err, SLT_EIO, name, (int64_t)head, NULL,
				     "read error: %s", strerror(errno));
	}
	if (info)
		memset(info, 0, sizeof(*info));
	if (quoted(fmt, buf, head)) {
		size_t size = SLT_DETECT_BYTES;
		int rc = head == SLT_DETECT_BYTES ? slurp(f, &buf, &size, head, name, err)
						  : (size = head, 0);
		if (!rc)
			rc = slt_samples_read_mem(buf, size, name, fmt, cb, ctx, info, err);
		free(buf);
		return rc;
	}
	const struct slt_samples_parser *p = choose(fmt, buf, head, name, err);
	if (!p) {
		free(buf);
		return err && err->code ? err->code : SLT_EUSAGE;
	}
	int rc;
	if (p->parse_stream) {
		struct slt_samples_info local;
		if (!info)
			info = &local;
		info->format = p->format;
		struct slt_parse_ctx pc = { name, cb, ctx, info, err };
		rc = p->parse_stream(&pc, f, buf, head);
	} else {
		size_t size = SLT_DETECT_BYTES;
		rc = head == SLT_DETECT_BYTES ? slurp(f, &buf, &size, head, name, err)
					      : (size = head, 0);
		if (rc == 0)
			rc = run(p, name, buf, size, cb, ctx, info, err);
	}
	free(buf);
	return rc;
}

int slt_samples_read(const char *path, enum slt_samples_format fmt,
		     slt_sample_cb cb, void *ctx, struct slt_samples_info *info,
		     struct slt_error *err)
{
	if (!path || !cb)
		return slt_error_set(err, SLT_EUSAGE, path, -1, NULL,
				     "no input path or no callback");
	if (strcmp(path, "-") == 0)
		return read_stream(stdin, "<stdin>", fmt, cb, ctx, info, err);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return slt_error_set(err, SLT_EIO, path, -1,
				     "check the path and its permissions",
				     "cannot open: %s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return slt_error_set(err, SLT_EIO, path, -1, NULL, "cannot stat: %s",
				     strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return slt_error_set(err, SLT_EUSAGE, path, -1,
				     "give a sample file: perf c2c/mem report text, perf.data, "
				     "perf script text or a structlint.profile/v1 JSON file",
				     "is a directory, not a sample file");
	}
	if (!S_ISREG(st.st_mode)) {
		FILE *f = fdopen(fd, "rb");
		if (!f) {
			close(fd);
			return slt_error_set(err, SLT_ENOMEM, path, -1, NULL,
					     "out of memory");
		}
		int rc = read_stream(f, path, fmt, cb, ctx, info, err);
		fclose(f);
		return rc;
	}
	size_t size = (size_t)st.st_size;
	/* detect from the head, read with pread: then a parser with parse_fd
	 * streams the file and nothing of it is mapped here */
	unsigned char *head = malloc(SLT_DETECT_BYTES);
	if (!head) {
		close(fd);
		return slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
	}
	size_t hn = 0;
	while (hn < SLT_DETECT_BYTES && hn < size) {
		ssize_t r = pread(fd, head + hn, SLT_DETECT_BYTES - hn, (off_t)hn);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(head);
			close(fd);
			return slt_error_set(err, SLT_EIO, path, (int64_t)hn, NULL,
					     "read error: %s", strerror(e));
		}
		if (r == 0)
			break;
		hn += (size_t)r;
	}
	if (info)
		memset(info, 0, sizeof(*info));
	const struct slt_samples_parser *p = NULL;
	bool q = quoted(fmt, head, hn);
	if (!q && !(p = choose(fmt, head, hn, path, err))) {
		free(head);
		close(fd);
		return err && err->code ? err->code : SLT_EUSAGE;
	}
	free(head);
	if (p && p->parse_fd) {
		struct slt_samples_info local;
		if (!info)
			info = &local;
		info->format = p->format;
		struct slt_parse_ctx pc = { path, cb, ctx, info, err };
		int rc = p->parse_fd(&pc, fd);
		close(fd);
		return rc;
	}
	void *map = NULL;
	if (size) {
		map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			int e = errno;
			close(fd);
			return slt_error_set(err, SLT_EIO, path, -1, NULL,
					     "mmap failed: %s", strerror(e));
		}
	}
	close(fd);
	int rc = q ? slt_samples_read_mem(map ? map : "", size, path, fmt, cb, ctx, info, err)
		   : run(p, path, map ? map : "", size, cb, ctx, info, err);
	if (map)
		munmap(map, size);
	return rc;
}
