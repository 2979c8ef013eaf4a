/* SPDX-License-Identifier: MIT */
/*
 * perf.data reader: file header, attrs and their ids, feature sections,
 * the record stream (file and pipe mode), zstd PERF_RECORD_COMPRESSED.
 * Follows tools/perf/Documentation/perf.data-file-format.txt; record
 * layouts from <linux/perf_event.h>.  Sizes and offsets read from the
 * input are untrusted: each is checked against what is really there.
 *
 * Memory is independent of the number of samples: a file is mmapped and
 * walked record by record; a pipe is read through a fixed buffer (records
 * are at most 64 KiB: header.size is a u16); compressed records are
 * decompressed into a fixed buffer and a record cut at its end is carried
 * over (at most 64 KiB).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "samples/parsers.h"
#include "samples/perf_data.h"
#include "structlint/error.h"

#define MAGIC 0x32454c4946524550ull  /* "PERFILE2" little-endian */
#define MAGIC_SWAPPED 0x50455246494c4532ull
#define REC_MAX 65536u               /* header.size is a u16 */
#define ZOUT_SIZE (1u << 20)         /* decompression window */
#define PIPE_BUF_SIZE (1u << 20)

struct pd {
	const char *name;
	slt_sample_cb cb;
	void *ctx;
	struct slt_samples_info *info;
	struct slt_error *err;
	bool pipe;
	int fd;                   /* file mode: data read with pread, -1: from memory */
	struct slt_perf_attr *attrs;
	size_t n_attrs, cap_attrs;
	/* id -> attr index, open addressing; keys + 1 so 0 means empty */
	uint64_t *id_keys;
	uint32_t *id_vals;
	size_t id_cap, n_ids;
	int id_pos;               /* from the first attr, -1: none */
	bool id_pos_mixed;
	char version[64];
	unsigned nr_cpus;
	uint64_t unknown_kind;    /* ADDR samples without load/store op */
	struct slt_sample s;      /* the record handed to cb, reused */
	slt_perf_rec_cb rec_cb;   /* other records (perf_data.h), or NULL */
	void *rec_ctx;
	struct slt_perf_dsrc_cache dsrc;
	/* zstd */
	ZSTD_DCtx *zctx;
	uint8_t *zout;
	size_t zfill;
	uint64_t zskip;           /* payload bytes still to drop in zout */
};

bool slt_perf_data_detect(const void *buf, size_t n)
{
	uint64_t m;
	if (n < 8)
		return false;
	memcpy(&m, buf, 8);
	return m == MAGIC || m == MAGIC_SWAPPED;
}

static int corrupt(struct pd *p, uint64_t off, const char *fmt, const char *what)
{
	return slt_error_set(p->err, SLT_ECORRUPT, p->name, (int64_t)off,
			     "the perf.data file is truncated or damaged; record it again, or check it with `perf report --header-only -i FILE`",
			     fmt, what);
}

/* ---- attrs and ids ---- */

static int add_attr(struct pd *p, const void *attr, size_t attr_size,
		    uint64_t off)
{
	if (attr_size < PERF_ATTR_SIZE_VER0)
		return corrupt(p, off, "perf_event_attr of %s bytes is smaller than the first published version (64)", "fewer than 64");
	if (p->n_attrs >= 4096)
		return corrupt(p, off, "more than %s events", "4096");
	if (p->n_attrs == p->cap_attrs) {
		size_t nc = p->cap_attrs ? p->cap_attrs * 2 : 4;
		void *n = realloc(p->attrs, nc * sizeof(*p->attrs));
		if (!n)
			return slt_error_set(p->err, SLT_ENOMEM, p->name, -1, NULL, "out of memory");
		p->attrs = n;
		p->cap_attrs = nc;
	}
	struct slt_perf_attr *a = &p->attrs[p->n_attrs];
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, attr, attr_size < sizeof(a->attr) ? attr_size : sizeof(a->attr));
	slt_perf_attr_prepare(a);
	slt_perf_attr_generic_name(&a->attr, a->name, sizeof(a->name));
	int pos = slt_perf_sample_id_pos(a->attr.sample_type);
	if (p->n_attrs == 0)
		p->id_pos = pos;
	else if (pos != p->id_pos)
		p->id_pos_mixed = true;
	p->n_attrs++;
	return 0;
}

static uint64_t id_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static int add_id(struct pd *p, uint64_t id, uint32_t attr)
{
	if ((p->n_ids + 1) * 2 > p->id_cap) {
		size_t nc = p->id_cap ? p->id_cap * 2 : 64;
		uint64_t *k = calloc(nc, sizeof(*k));
		uint32_t *v = calloc(nc, sizeof(*v));
		if (!k || !v) {
			free(k);
			free(v);
			return slt_error_set(p->err, SLT_ENOMEM, p->name, -1, NULL, "out of memory");
		}
		for (size_t i = 0; i < p->id_cap; i++) {
			if (!p->id_keys[i])
				continue;
			size_t j = id_hash(p->id_keys[i]) & (nc - 1);
			while (k[j])
				j = (j + 1) & (nc - 1);
			k[j] = p->id_keys[i];
			v[j] = p->id_vals[i];
		}
		free(p->id_keys);
		free(p->id_vals);
		p->id_keys = k;
		p->id_vals = v;
		p->id_cap = nc;
	}
	uint64_t key = id + 1;
	size_t j = id_hash(key) & (p->id_cap - 1);
	while (p->id_keys[j] && p->id_keys[j] != key)
		j = (j + 1) & (p->id_cap - 1);
	if (!p->id_keys[j])
		p->n_ids++;
	p->id_keys[j] = key;
	p->id_vals[j] = attr;
	return 0;
}

static int find_id(const struct pd *p, uint64_t id)
{
	if (!p->id_cap)
		return -1;
	uint64_t key = id + 1;
	size_t j = id_hash(key) & (p->id_cap - 1);
	while (p->id_keys[j]) {
		if (p->id_keys[j] == key)
			return (int)p->id_vals[j];
		j = (j + 1) & (p->id_cap - 1);
	}
	return -1;
}

/* The feature context of p (perf_data_feat.c). */
static int find_id_cb(const void *ctx, uint64_t id);

static void feature(struct pd *p, unsigned bit, const uint8_t *b, size_t n)
{
	struct slt_perf_feat_ctx c = {
		.version = p->version, .version_size = sizeof(p->version),
		.nr_cpus = &p->nr_cpus, .attrs = p->attrs, .n_attrs = p->n_attrs,
		.find_id = find_id_cb, .id_ctx = p,
		.rec_cb = p->rec_cb, .rec_ctx = p->rec_ctx,
	};
	slt_perf_feature(&c, bit, b, n);
}

/* A byte stream: a descriptor or a stdio stream. */
struct src {
	int fd;
	FILE *f;
	bool positioned;       /* pread from pos, at most left bytes */
	uint64_t pos, left;
};

static int find_id_cb(const void *ctx, uint64_t id)
{
	return find_id(ctx, id);
}

/* ---- records ---- */

/* One PERF_RECORD_SAMPLE: its attr by id, then slt_perf_sample_take(). */
static int on_sample(struct pd *p, const uint8_t *rec, size_t size, uint64_t off)
{
	const struct slt_perf_attr *a;
	if (p->n_attrs == 0)
		return corrupt(p, off, "%s before any event attribute", "sample record");
	if (p->n_attrs == 1) {
		a = &p->attrs[0];
	} else {
		if (p->id_pos < 0 || p->id_pos_mixed || (size_t)p->id_pos + 8 > size) {
			p->info->skipped++;
			return 0;
		}
		uint64_t id;
		memcpy(&id, rec + p->id_pos, 8);
		int i = find_id(p, id);
		if (i < 0) {   /* perf counts these as nr_unknown_id */
			p->info->skipped++;
			return 0;
		}
		a = &p->attrs[i];
	}
	bool unknown;
	size_t bad;
	int rc = slt_perf_sample_take(a, rec, size, &p->s, &p->dsrc, &unknown, &bad);
	if (rc < 0)
		return corrupt(p, off + bad, "%s field runs past the end of its record", "sample");
	if (rc == 0) {
		p->info->skipped++;
		return p->rec_cb ? p->rec_cb(p->rec_ctx, a, rec, size, off) : 0;
	}
	p->unknown_kind += unknown;
	p->info->records++;
	p->info->samples++;
	return p->cb ? p->cb(p->ctx, &p->s) : 0;
}

static int on_header_feature(struct pd *p, const uint8_t *rec, size_t size)
{
	uint64_t feat;
	if (size < 16)
		return 0;
	memcpy(&feat, rec + 8, 8);
	if (feat < SLT_PERF_FEAT_BITS)
		feature(p, (unsigned)feat, rec + 16, size - 16);
	return 0;
}

static int decompress(struct pd *p, const uint8_t *src, size_t n, uint64_t off);

/*
 * Handle one complete record.  *extra gets the bytes of payload that
 * follow the record outside its header.size (AUXTRACE, TRACING_DATA).
 */
static int on_record(struct pd *p, const uint8_t *rec, size_t size,
		     uint64_t off, bool nested, uint64_t *extra)
{
	uint32_t type;
	memcpy(&type, rec, 4);
	*extra = 0;
	switch (type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(p, rec, size, off);
	case SLT_PERF_RECORD_HEADER_ATTR: {
		/* struct perf_event_attr (attr.size bytes), then u64 ids[] */
		uint32_t asz;
		if (size < 8 + 8)
			return corrupt(p, off, "%s record too short", "HEADER_ATTR");
		memcpy(&asz, rec + 8 + 4, 4);  /* perf_event_attr.size */
		if (asz == 0)
			asz = PERF_ATTR_SIZE_VER0;
		if (asz > size - 8)
			return corrupt(p, off, "%s attr size larger than its record", "HEADER_ATTR");
		int rc = add_attr(p, rec + 8, asz, off);
		for (size_t i = 8 + asz; rc == 0 && i + 8 <= size; i += 8) {
			uint64_t id;
			memcpy(&id, rec + i, 8);
			rc = add_id(p, id, (uint32_t)(p->n_attrs - 1));
		}
		return rc;
	}
	case SLT_PERF_RECORD_HEADER_FEATURE:
		return on_header_feature(p, rec, size);
	case SLT_PERF_RECORD_HEADER_BUILD_ID:
		return p->rec_cb ? p->rec_cb(p->rec_ctx, NULL, rec, size, off) : 0;
	case SLT_PERF_RECORD_COMPRESSED:
		if (nested) {
			p->info->skipped++;
			return 0;
		}
		return decompress(p, rec + 8, size - 8, off);
	case SLT_PERF_RECORD_COMPRESSED2: {
		/* perf >= 6.15: u64 data_size, then data padded to 8 */
		uint64_t ds;
		if (nested) {
			p->info->skipped++;
			return 0;
		}
		if (size < 16)
			return corrupt(p, off, "%s record too short", "COMPRESSED2");
		memcpy(&ds, rec + 8, 8);
		if (ds > size - 16)
			return corrupt(p, off + 8, "%s data_size larger than its record", "COMPRESSED2");
		return decompress(p, rec + 16, (size_t)ds, off);
	}
	case SLT_PERF_RECORD_AUXTRACE:
		if (size >= 16)
			memcpy(extra, rec + 8, 8);
		p->info->skipped++;
		return 0;
	case SLT_PERF_RECORD_HEADER_TRACING_DATA:
		if (size >= 12) {
			uint32_t sz;
			memcpy(&sz, rec + 8, 4);
			*extra = ((uint64_t)sz + 7) & ~7ull;
		}
		p->info->skipped++;
		return 0;
	default:
		p->info->skipped++;
		if (p->rec_cb && type < SLT_PERF_RECORD_HEADER_ATTR)
			return p->rec_cb(p->rec_ctx, NULL, rec, size, off);
		return 0;
	}
}

/* Walk whole records in buf[0..n); *used: bytes consumed (a partial
 * record at the end is left).  Returns 0, the callback's value or a
 * negative code. *skip: payload bytes to
 * drop first (carried across calls). */
static int walk(struct pd *p, const uint8_t *buf, size_t n, uint64_t base,
		bool nested, uint64_t *skip, size_t *used)
{
	size_t pos = 0;
	*used = 0;
	while (pos < n) {
		if (*skip) {
			size_t k = *skip < n - pos ? (size_t)*skip : n - pos;
			pos += k;
			*skip -= k;
			continue;
		}
		if (n - pos < 8)
			break;
		uint16_t sz;
		memcpy(&sz, buf + pos + 6, 2);
		if (sz < 8)
			return corrupt(p, base + pos, "record with %s (smaller than its own header)", "a size under 8 bytes");
		if (sz > n - pos)
			break;
		int rc = on_record(p, buf + pos, sz, base + pos, nested, skip);
		if (rc)
			return rc;
		pos += sz;
		*used = pos;
	}
	*used = pos;
	return 0;
}

static int decompress(struct pd *p, const uint8_t *src, size_t n, uint64_t off)
{
	if (!p->zctx) {
		p->zctx = ZSTD_createDCtx();
		p->zout = malloc(ZOUT_SIZE);
		if (!p->zctx || !p->zout)
			return slt_error_set(p->err, SLT_ENOMEM, p->name, -1, NULL, "out of memory");
	}
	ZSTD_inBuffer in = { src, n, 0 };
	for (;;) {
		ZSTD_outBuffer out = { p->zout, ZOUT_SIZE, p->zfill };
		size_t r = ZSTD_decompressStream(p->zctx, &out, &in);
		if (ZSTD_isError(r))
			return slt_error_set(p->err, SLT_ECORRUPT, p->name, (int64_t)off,
					     "the compressed records are damaged; record again without -z to check",
					     "zstd: %s in a PERF_RECORD_COMPRESSED record", ZSTD_getErrorName(r));
		bool more = out.pos == out.size;  /* output full: call again */
		p->zfill = out.pos;
		size_t used;
		int rc = walk(p, p->zout, p->zfill, off, true, &p->zskip, &used);
		if (rc)
			return rc;
		memmove(p->zout, p->zout + used, p->zfill - used);
		p->zfill -= used;
		if (p->zfill >= REC_MAX)  /* cannot happen: records < 64 KiB */
			return corrupt(p, off, "%s", "undecodable decompressed stream");
		if (in.pos == in.size && !more)
			return 0;
	}
}

static int read_stream(struct pd *p, struct src *in, const uint8_t *pre,
		       size_t npre, uint64_t base);

/* ---- file mode ---- */

struct file_header {
	uint64_t magic, size, attr_size;
	uint64_t attrs_off, attrs_size, data_off, data_size, et_off, et_size;
	uint64_t flags[4];
};

static bool in_file(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

static int read_file_mode(struct pd *p, const uint8_t *b, size_t size)
{
	struct file_header h;
	if (size < SLT_PERF_FILE_HEADER_SIZE)
		return corrupt(p, size, "%s", "file header truncated");
	memcpy(&h, b, sizeof(h));
	if (h.attr_size < PERF_ATTR_SIZE_VER0 + 16 || h.attr_size > 4096)
		return corrupt(p, 16, "attr_size %s is not a valid perf_file_attr size", "field");
	if (!in_file(h.attrs_off, h.attrs_size, size))
		return corrupt(p, 24, "%s points outside the file", "attrs section");
	if (!in_file(h.data_off, h.data_size, size))
		return corrupt(p, 40, "%s points outside the file (truncated file?)", "data section");
	/* attrs: struct perf_file_attr { attr (attr_size - 16); section ids } */
	size_t na = h.attrs_size / h.attr_size;
	for (size_t i = 0; i < na; i++) {
		const uint8_t *fa = b + h.attrs_off + i * h.attr_size;
		uint64_t ids_off, ids_size;
		memcpy(&ids_off, fa + h.attr_size - 16, 8);
		memcpy(&ids_size, fa + h.attr_size - 8, 8);
		int rc = add_attr(p, fa, h.attr_size - 16, h.attrs_off + i * h.attr_size);
		if (rc)
			return rc;
		if (!in_file(ids_off, ids_size, size))
			return corrupt(p, h.attrs_off + i * h.attr_size + h.attr_size - 16, "%s points outside the file", "event id array");
		for (uint64_t k = 0; k + 8 <= ids_size; k += 8) {
			uint64_t id;
			memcpy(&id, b + ids_off + k, 8);
			if ((rc = add_id(p, id, (uint32_t)i)))
				return rc;
		}
	}
	/* features: one perf_file_section per set bit, after the data */
	uint64_t fpos = h.data_off + h.data_size;
	for (unsigned bit = 0; bit < SLT_PERF_FEAT_BITS; bit++) {
		if (!(h.flags[bit / 64] >> (bit % 64) & 1))
			continue;
		if (!in_file(fpos, 16, size))
			break;   /* missing feature index: perf warns too */
		uint64_t fo, fs;
		memcpy(&fo, b + fpos, 8);
		memcpy(&fs, b + fpos + 8, 8);
		fpos += 16;
		if (in_file(fo, fs, size))
			feature(p, bit, b + fo, (size_t)fs);
	}
	if (p->fd >= 0) {
		/* read the data through a fixed buffer: resident memory stays
		 * small whatever the file size (an mmap walk would keep every
		 * page it touched) */
		struct src in = { .fd = p->fd, .positioned = true,
				  .pos = h.data_off, .left = h.data_size };
		return read_stream(p, &in, NULL, 0, h.data_off);
	}
	uint64_t skip = 0;
	size_t used;
	int rc = walk(p, b + h.data_off, (size_t)h.data_size, h.data_off, false, &skip, &used);
	if (rc)
		return rc;
	if ((uint64_t)used != h.data_size || skip)
		return corrupt(p, h.data_off + (uint64_t)used, "%s: the data section ends inside a record", "truncated record");
	return 0;
}

/* ---- pipe mode ---- */

static int read_pipe_mem(struct pd *p, const uint8_t *b, size_t size)
{
	uint64_t skip = 0;
	size_t used;
	int rc = walk(p, b + 16, size - 16, 16, false, &skip, &used);
	if (rc)
		return rc;
	if (used != size - 16 || skip)
		return corrupt(p, 16 + (uint64_t)used, "%s: the stream ends inside a record", "truncated record");
	return 0;
}

static ssize_t src_read(struct src *s, void *b, size_t n)
{
	if (s->positioned) {
		if (n > s->left)
			n = (size_t)s->left;
		if (!n)
			return 0;
		for (;;) {
			ssize_t r = pread(s->fd, b, n, (off_t)s->pos);
			if (r < 0 && errno == EINTR)
				continue;
			if (r > 0) {
				s->pos += (uint64_t)r;
				s->left -= (uint64_t)r;
			}
			return r;
		}
	}
	if (s->f) {
		size_t r = fread(b, 1, n, s->f);
		return r == 0 && ferror(s->f) ? -1 : (ssize_t)r;
	}
	for (;;) {
		ssize_t r = read(s->fd, b, n);
		if (r < 0 && errno == EINTR)
			continue;
		return r;
	}
}

/* Records from a stream through a fixed buffer; pre[0..npre) were read
 * already; base: file offset of pre[0]. */
static int read_stream(struct pd *p, struct src *in, const uint8_t *pre,
		       size_t npre, uint64_t base)
{
	uint8_t *buf = malloc(PIPE_BUF_SIZE);
	if (!buf)
		return slt_error_set(p->err, SLT_ENOMEM, p->name, -1, NULL, "out of memory");
	size_t fill = npre;
	if (npre)
		memcpy(buf, pre, npre);
	uint64_t skip = 0;
	int rc = 0;
	bool eof = false;
	while (!rc) {
		if (!eof && fill < PIPE_BUF_SIZE) {
			ssize_t r = src_read(in, buf + fill, PIPE_BUF_SIZE - fill);
			if (r < 0) {
				rc = slt_error_set(p->err, SLT_EIO, p->name, (int64_t)(base + fill), NULL, "read: %s", strerror(errno));
				break;
			}
			if (r == 0)
				eof = true;
			fill += (size_t)r;
			if (!eof && fill < REC_MAX)
				continue;
		}
		size_t used;
		rc = walk(p, buf, fill, base, false, &skip, &used);
		if (rc)
			break;
		memmove(buf, buf + used, fill - used);
		fill -= used;
		base += used;
		if (eof) {
			if (fill || skip)
				rc = corrupt(p, base, "%s: the data ends inside a record", "truncated record");
			break;
		}
	}
	free(buf);
	return rc;
}

/* ---- entry points ---- */

static void pd_init(struct pd *p, const char *name, slt_sample_cb cb, void *ctx,
		    struct slt_samples_info *info, struct slt_error *err)
{
	memset(p, 0, sizeof(*p));
	memset(info, 0, sizeof(*info));
	p->name = name;
	p->cb = cb;
	p->ctx = ctx;
	p->info = info;
	p->err = err;
	p->id_pos = -1;
	p->fd = -1;
	p->s.node = -1;
	info->format = SLT_SAMPLES_PERF_DATA;
}

static void pd_finish(struct pd *p)
{
	struct slt_samples_info *in = p->info;
	int n = snprintf(in->detail, sizeof(in->detail), "perf.data %s mode%s%s, %zu event%s",
			 p->pipe ? "pipe" : "file", p->version[0] ? ", perf " : "",
			 p->version, p->n_attrs, p->n_attrs == 1 ? "" : "s");
	for (size_t i = 0; i < p->n_attrs && n > 0 && (size_t)n < sizeof(in->detail); i++)
		n += snprintf(in->detail + n, sizeof(in->detail) - n, "%s%s",
			      i ? ", " : ": ", p->attrs[i].name);
	if (p->unknown_kind && n > 0 && (size_t)n < sizeof(in->detail))
		snprintf(in->detail + n, sizeof(in->detail) - n,
			 "; %" PRIu64 " samples without a load/store kind (e.g. page faults) counted as loads",
			 p->unknown_kind);
	free(p->attrs);
	free(p->id_keys);
	free(p->id_vals);
	ZSTD_freeDCtx(p->zctx);
	free(p->zout);
}

static int check_magic(struct pd *p, const uint8_t *b, size_t n)
{
	uint64_t m = 0, hs = 0;
	if (n >= 8)
		memcpy(&m, b, 8);
	if (m == MAGIC_SWAPPED)
		return slt_error_set(p->err, SLT_EUNSUPPORTED, p->name, 0,
				     "convert it with perf on a machine of the recording's byte order (perf script, or perf inject)",
				     "perf.data written in the opposite byte order (big-endian) is not decoded");
	if (m != MAGIC)
		return slt_error_set(p->err, SLT_ECORRUPT, p->name, 0,
				     "expected a perf.data file (magic PERFILE2)", "not a perf.data file");
	if (n < 16)
		return corrupt(p, n, "%s", "header truncated");
	memcpy(&hs, b + 8, 8);
	if (hs == SLT_PERF_PIPE_HEADER_SIZE)
		p->pipe = true;
	else if (hs != SLT_PERF_FILE_HEADER_SIZE)
		return corrupt(p, 8, "header size %s is neither 16 (pipe) nor 104 (file)", "field");
	return 0;
}

static int read_mem_h(const void *data, size_t size, const char *name,
		      slt_sample_cb cb, void *ctx, slt_perf_rec_cb rcb,
		      void *rctx, struct slt_samples_info *info,
		      struct slt_error *err)
{
	struct slt_samples_info dummy;
	struct pd p;
	pd_init(&p, name ? name : "<memory>", cb, ctx, info ? info : &dummy, err);
	p.rec_cb = rcb;
	p.rec_ctx = rctx;
	int rc = check_magic(&p, data, size);
	if (!rc)
		rc = p.pipe ? read_pipe_mem(&p, data, size) : read_file_mode(&p, data, size);
	pd_finish(&p);
	return rc;
}

int slt_perf_data_read_mem(const void *data, size_t size, const char *name,
			   slt_sample_cb cb, void *ctx,
			   struct slt_samples_info *info, struct slt_error *err)
{
	return read_mem_h(data, size, name, cb, ctx, NULL, NULL, info, err);
}

int slt_perf_data_read_mem_hook(const void *data, size_t size,
				const char *name, slt_sample_cb cb, void *ctx,
				slt_perf_rec_cb rec_cb, void *rec_ctx,
				struct slt_samples_info *info,
				struct slt_error *err)
{
	return read_mem_h(data, size, name, cb, ctx, rec_cb, rec_ctx, info, err);
}

static int read_fd_h(int fd, const char *name, slt_sample_cb cb, void *ctx,
		     slt_perf_rec_cb rcb, void *rctx,
		     struct slt_samples_info *info, struct slt_error *err)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return slt_error_set(err, SLT_EIO, name, -1, NULL, "fstat: %s", strerror(errno));
	if (S_ISREG(st.st_mode)) {
		if (st.st_size == 0)
			return slt_error_set(err, SLT_ECORRUPT, name, 0,
					     "record again: perf wrote nothing", "empty file");
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED)
			return slt_error_set(err, SLT_EIO, name, -1, NULL, "mmap: %s", strerror(errno));
		struct slt_samples_info dummy;
		struct pd p;
		pd_init(&p, name, cb, ctx, info ? info : &dummy, err);
		p.fd = fd;
		p.rec_cb = rcb;
		p.rec_ctx = rctx;
		int rc = check_magic(&p, m, (size_t)st.st_size);
		if (!rc)
			rc = p.pipe ? read_pipe_mem(&p, m, (size_t)st.st_size)
				    : read_file_mode(&p, m, (size_t)st.st_size);
		pd_finish(&p);
		munmap(m, (size_t)st.st_size);
		return rc;
	}
	/* a pipe: only pipe mode can be streamed */
	uint8_t head[16];
	size_t n = 0;
	while (n < sizeof(head)) {
		ssize_t r = read(fd, head + n, sizeof(head) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return slt_error_set(err, SLT_EIO, name, (int64_t)n, NULL, "read: %s", strerror(errno));
		if (r == 0)
			break;
		n += (size_t)r;
	}
	struct slt_samples_info dummy;
	struct pd p;
	pd_init(&p, name, cb, ctx, info ? info : &dummy, err);
	p.rec_cb = rcb;
	p.rec_ctx = rctx;
	int rc = check_magic(&p, head, n);
	if (!rc && !p.pipe)
		rc = slt_error_set(err, SLT_EUNSUPPORTED, name, 8,
				   "pass the file's path instead, or record with `perf record -o -` for a stream",
				   "a file-mode perf.data cannot be read from a pipe (its sections need seeking)");
	struct src in = { .fd = fd };
	if (!rc)
		rc = read_stream(&p, &in, head + 16, n - 16, 16);
	pd_finish(&p);
	return rc;
}

int slt_perf_data_read_fd(int fd, const char *name, slt_sample_cb cb,
			  void *ctx, struct slt_samples_info *info,
			  struct slt_error *err)
{
	return read_fd_h(fd, name, cb, ctx, NULL, NULL, info, err);
}

/* ---- the parser table entry (parsers.h) ---- */

int slt_perf_data_detect_head(const unsigned char *head, size_t n)
{
	return slt_perf_data_detect(head, n) ? 100 : 0;
}

int slt_perf_data_parse(const struct slt_parse_ctx *pc,
			const unsigned char *data, size_t size)
{
	return slt_perf_data_read_mem(data, size, pc->name, pc->cb, pc->cb_ctx,
				      pc->info, pc->err);
}

int slt_perf_data_parse_fd(const struct slt_parse_ctx *pc, int fd)
{
	return slt_perf_data_read_fd(fd, pc->name, pc->cb, pc->cb_ctx, pc->info,
				     pc->err);
}

int slt_perf_data_parse_stream(const struct slt_parse_ctx *pc, FILE *f,
			       const unsigned char *head, size_t head_len)
{
	struct pd p;
	pd_init(&p, pc->name, pc->cb, pc->cb_ctx, pc->info, pc->err);
	int rc = check_magic(&p, head, head_len);
	if (!rc && !p.pipe)
		rc = slt_error_set(pc->err, SLT_EUNSUPPORTED, pc->name, 8,
				   "pass the file's path instead, or record with `perf record -o -` for a stream",
				   "a file-mode perf.data cannot be read from a pipe (its sections need seeking)");
	struct src in = { .fd = -1, .f = f };
	if (!rc)
		rc = read_stream(&p, &in, head + 16, head_len - 16, 16);
	pd_finish(&p);
	return rc;
}

int slt_perf_data_read_hook(const char *path, slt_sample_cb cb, void *ctx,
			    slt_perf_rec_cb rec_cb, void *rec_ctx,
			    struct slt_samples_info *info, struct slt_error *err)
{
	if (!strcmp(path, "-"))
		return read_fd_h(STDIN_FILENO, "<stdin>", cb, ctx, rec_cb, rec_ctx, info, err);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return slt_error_set(err, SLT_EIO, path, -1, "check the path", "cannot open: %s", strerror(errno));
	int rc = read_fd_h(fd, path, cb, ctx, rec_cb, rec_ctx, info, err);
	close(fd);
	return rc;
}

int slt_perf_data_read(const char *path, slt_sample_cb cb, void *ctx,
		       struct slt_samples_info *info, struct slt_error *err)
{
	return slt_perf_data_read_hook(path, cb, ctx, NULL, NULL, info, err);
}
