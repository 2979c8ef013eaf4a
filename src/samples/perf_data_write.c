/* SPDX-License-Identifier: MIT */
/*
 * A small perf.data writer: file mode (header, id arrays, attrs, data,
 * feature index and sections, as tools/perf/util/header.c lays them out)
 * or pipe mode (16-byte header, PERF_RECORD_HEADER_ATTR and
 * PERF_RECORD_HEADER_FEATURE records), optionally with the records packed
 * into zstd PERF_RECORD_COMPRESSED records (one zstd frame per record, at
 * most CHUNK bytes of records each, as perf record -z does).  Used by the
 * tests, the benchmark and `structlint record`; `perf script` reads what it
 * writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "samples/perf_data.h"
#include "structlint/error.h"

#define OUT_SIZE (1u << 20)
#define CHUNK (32u << 10)   /* records per COMPRESSED record (raw bytes) */

struct pdw_event {
	struct perf_event_attr attr;
	char name[64];
	uint64_t *ids;
	size_t n_ids;
	unsigned n_regs_user, n_regs_intr;
};

struct slt_pdw {
	int fd;
	unsigned flags;
	struct pdw_event *ev;
	size_t n_ev;
	bool started;
	uint64_t data_off, data_size;  /* file mode */
	uint8_t *out;                  /* write buffer */
	size_t out_fill;
	uint8_t *chunk;                /* compression input */
	size_t chunk_fill;
	ZSTD_CCtx *cctx;
	unsigned nr_cpus;
	char version[64];
	char **argv;
	int argc;
	int io_errno;
	struct pdw_bid { int32_t pid; uint16_t misc; uint8_t id[20], len;
			 char *name; } *bids;
	size_t n_bids;
};

int slt_pdw_open(struct slt_pdw **out, int fd, unsigned flags,
		 struct slt_error *err)
{
	struct slt_pdw *w = calloc(1, sizeof(*w));
	if (w)
		w->out = malloc(OUT_SIZE);
	if (w && w->out && (flags & SLT_PDW_COMPRESS)) {
		w->chunk = malloc(CHUNK);
		w->cctx = ZSTD_createCCtx();
	}
	if (!w || !w->out || ((flags & SLT_PDW_COMPRESS) && (!w->chunk || !w->cctx))) {
		if (w) {
			free(w->out);
			free(w->chunk);
			ZSTD_freeCCtx(w->cctx);
		}
		free(w);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	w->fd = fd;
	w->flags = flags;
	*out = w;
	return 0;
}

int slt_pdw_add_event(struct slt_pdw *w, const struct perf_event_attr *attr,
		      const char *name, const uint64_t *ids, size_t n_ids)
{
	if (w->started || w->n_ev >= 64)
		return SLT_EUSAGE;
	void *n = realloc(w->ev, (w->n_ev + 1) * sizeof(*w->ev));
	if (!n)
		return SLT_ENOMEM;
	w->ev = n;
	struct pdw_event *e = &w->ev[w->n_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->attr.size = sizeof(e->attr);
	if (name)
		snprintf(e->name, sizeof(e->name), "%s", name);
	e->ids = malloc((n_ids ? n_ids : 1) * sizeof(uint64_t));
	if (!e->ids)
		return SLT_ENOMEM;
	if (n_ids)
		memcpy(e->ids, ids, n_ids * sizeof(uint64_t));
	e->n_ids = n_ids;
	e->n_regs_user = (unsigned)__builtin_popcountll(attr->sample_regs_user);
	e->n_regs_intr = (unsigned)__builtin_popcountll(attr->sample_regs_intr);
	return (int)w->n_ev++;
}

void slt_pdw_set_info(struct slt_pdw *w, unsigned nr_cpus,
		      const char *version, int argc, char *const *argv)
{
	w->nr_cpus = nr_cpus;
	if (version)
		snprintf(w->version, sizeof(w->version), "%s", version);
	if (argc > 0 && argv) {
		w->argv = calloc((size_t)argc, sizeof(char *));
		if (!w->argv)
			return;
		for (int i = 0; i < argc; i++)
			w->argv[i] = strdup(argv[i] ? argv[i] : "");
		w->argc = argc;
	}
}

int slt_pdw_add_build_id(struct slt_pdw *w, int32_t pid, uint16_t misc,
			 const uint8_t *id, size_t len, const char *filename)
{
	if (!len || len > 20 || !filename)
		return SLT_EUSAGE;
	void *n = realloc(w->bids, (w->n_bids + 1) * sizeof(*w->bids));
	if (!n)
		return SLT_ENOMEM;
	w->bids = n;
	struct pdw_bid *b = &w->bids[w->n_bids];
	memset(b, 0, sizeof(*b));
	if (!(b->name = strdup(filename)))
		return SLT_ENOMEM;
	b->pid = pid;
	b->misc = misc;
	memcpy(b->id, id, len);
	b->len = (uint8_t)len;
	w->n_bids++;
	return 0;
}

/* struct perf_record_header_build_id: header, pid, build_id[20], its size
 * (misc bit 15, PERF_RECORD_MISC_BUILD_ID_SIZE), the name padded to 8. */
static size_t bid_size(const struct pdw_bid *b)
{
	return 8 + 4 + 24 + ((strlen(b->name) + 1 + 7) & ~(size_t)7);
}

/* ---- raw output ---- */

static void flush_out(struct slt_pdw *w)
{
	size_t off = 0;
	while (off < w->out_fill && !w->io_errno) {
		ssize_t r = write(w->fd, w->out + off, w->out_fill - off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			w->io_errno = r < 0 ? errno : EIO;
		else
			off += (size_t)r;
	}
	w->out_fill = 0;
}

static void put(struct slt_pdw *w, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		if (w->out_fill == OUT_SIZE)
			flush_out(w);
		size_t k = OUT_SIZE - w->out_fill < n ? OUT_SIZE - w->out_fill : n;
		memcpy(w->out + w->out_fill, b, k);
		w->out_fill += k;
		b += k;
		n -= k;
	}
}

static void put64(struct slt_pdw *w, uint64_t v) { put(w, &v, 8); }
static void put32(struct slt_pdw *w, uint32_t v) { put(w, &v, 4); }

/* struct perf_header_string: u32 len (NUL included, padded to 64), text */
static size_t string_size(const char *s)
{
	return 4 + ((strlen(s) + 1 + 63) & ~(size_t)63);
}

static void put_string(struct slt_pdw *w, const char *s)
{
	size_t len = string_size(s) - 4, n = strlen(s);
	static const uint8_t zero[64];
	put32(w, (uint32_t)len);
	put(w, s, n);
	put(w, zero, len - n);
}

/* ---- compression ---- */

static void flush_chunk(struct slt_pdw *w)
{
	if (!w->chunk_fill)
		return;
	uint8_t rec[8 + ZSTD_COMPRESSBOUND(CHUNK)];
	ZSTD_inBuffer in = { w->chunk, w->chunk_fill, 0 };
	ZSTD_outBuffer o = { rec + 8, sizeof(rec) - 8, 0 };
	size_t r = ZSTD_compressStream2(w->cctx, &o, &in, ZSTD_e_end);
	if (ZSTD_isError(r) || r != 0 || o.pos + 8 > 65535) {
		w->io_errno = EIO;
		return;
	}
	/* unpadded, as perf record -z (perf <= 6.14) writes it */
	size_t size = 8 + o.pos;
	struct perf_event_header h = { SLT_PERF_RECORD_COMPRESSED, 0, (uint16_t)size };
	memcpy(rec, &h, 8);
	put(w, rec, size);
	w->data_size += size;
	w->chunk_fill = 0;
}

/* ---- header pieces ---- */

static void start(struct slt_pdw *w);

static void emit(struct slt_pdw *w, const void *rec, size_t size)
{
	if (!w->started)
		start(w);
	if (w->cctx) {
		if (w->chunk_fill + size > CHUNK)
			flush_chunk(w);
		memcpy(w->chunk + w->chunk_fill, rec, size);
		w->chunk_fill += size;
		return;
	}
	put(w, rec, size);
	w->data_size += size;
}

static size_t feat_size(struct slt_pdw *w, unsigned bit)
{
	size_t n = 0;
	switch (bit) {
	case SLT_PERF_FEAT_VERSION:
		return string_size(w->version);
	case SLT_PERF_FEAT_NRCPUS:
		return 8;
	case SLT_PERF_FEAT_CMDLINE:
		n = 4;
		for (int i = 0; i < w->argc; i++)
			n += string_size(w->argv[i]);
		return n;
	case SLT_PERF_FEAT_EVENT_DESC:
		n = 8;
		for (size_t i = 0; i < w->n_ev; i++)
			n += sizeof(struct perf_event_attr) + 4 +
			     string_size(w->ev[i].name) + 8 * w->ev[i].n_ids;
		return n;
	case SLT_PERF_FEAT_COMPRESSED:
		return 20;
	case SLT_PERF_FEAT_BUILD_ID:
		for (size_t i = 0; i < w->n_bids; i++)
			n += bid_size(&w->bids[i]);
		return n;
	}
	return 0;
}

static void feat_put(struct slt_pdw *w, unsigned bit)
{
	switch (bit) {
	case SLT_PERF_FEAT_VERSION:
		put_string(w, w->version);
		break;
	case SLT_PERF_FEAT_NRCPUS:
		put32(w, w->nr_cpus);   /* available */
		put32(w, w->nr_cpus);   /* online */
		break;
	case SLT_PERF_FEAT_CMDLINE:
		put32(w, (uint32_t)w->argc);
		for (int i = 0; i < w->argc; i++)
			put_string(w, w->argv[i]);
		break;
	case SLT_PERF_FEAT_EVENT_DESC:
		put32(w, (uint32_t)w->n_ev);
		put32(w, sizeof(struct perf_event_attr));
		for (size_t i = 0; i < w->n_ev; i++) {
			put(w, &w->ev[i].attr, sizeof(w->ev[i].attr));
			put32(w, (uint32_t)w->ev[i].n_ids);
			put_string(w, w->ev[i].name);
			put(w, w->ev[i].ids, 8 * w->ev[i].n_ids);
		}
		break;
	case SLT_PERF_FEAT_BUILD_ID:
		for (size_t i = 0; i < w->n_bids; i++) {
			const struct pdw_bid *b = &w->bids[i];
			size_t sz = bid_size(b), nl = strlen(b->name);
			uint8_t zero[8] = {0};
			struct perf_event_header h = { 0, (uint16_t)(b->misc | 1u << 15),
						       (uint16_t)sz };
			put(w, &h, 8);
			put32(w, (uint32_t)b->pid);
			put(w, b->id, 20);
			put32(w, b->len);   /* size, then 3 reserved bytes */
			put(w, b->name, nl);
			put(w, zero, sz - 36 - nl);
		}
		break;
	case SLT_PERF_FEAT_COMPRESSED:
		put32(w, 1);       /* version */
		put32(w, 1);       /* PERF_COMP_ZSTD */
		put32(w, 1);       /* level */
		put32(w, 0);       /* ratio */
		put32(w, CHUNK);   /* mmap_len: max decompressed size */
		break;
	}
}

static unsigned feats(struct slt_pdw *w, unsigned *bits)
{
	unsigned n = 0;
	if (w->flags & SLT_PDW_NO_FEATURES)
		return 0;
	/* in bit order, as the index lists them */
	if (w->n_bids) bits[n++] = SLT_PERF_FEAT_BUILD_ID;
	if (w->version[0]) bits[n++] = SLT_PERF_FEAT_VERSION;
	if (w->nr_cpus) bits[n++] = SLT_PERF_FEAT_NRCPUS;
	if (w->argc) bits[n++] = SLT_PERF_FEAT_CMDLINE;
	bool named = false;
	for (size_t i = 0; i < w->n_ev; i++)
		named |= w->ev[i].name[0] != 0;
	if (named) bits[n++] = SLT_PERF_FEAT_EVENT_DESC;
	if (w->cctx) bits[n++] = SLT_PERF_FEAT_COMPRESSED;
	return n;
}

static void start(struct slt_pdw *w)
{
	w->started = true;
	if (w->flags & SLT_PDW_PIPE) {
		put(w, "PERFILE2", 8);
		put64(w, SLT_PERF_PIPE_HEADER_SIZE);
		for (size_t i = 0; i < w->n_ev; i++) {
			size_t sz = 8 + sizeof(struct perf_event_attr) + 8 * w->ev[i].n_ids;
			struct perf_event_header h = { SLT_PERF_RECORD_HEADER_ATTR, 0, (uint16_t)sz };
			put(w, &h, 8);
			put(w, &w->ev[i].attr, sizeof(w->ev[i].attr));
			put(w, w->ev[i].ids, 8 * w->ev[i].n_ids);
		}
		unsigned bits[8], n = feats(w, bits);
		for (unsigned i = 0; i < n; i++) {
			size_t sz = 16 + ((feat_size(w, bits[i]) + 7) & ~(size_t)7);
			struct perf_event_header h = { SLT_PERF_RECORD_HEADER_FEATURE, 0, (uint16_t)sz };
			put(w, &h, 8);
			put64(w, bits[i]);
			feat_put(w, bits[i]);
			static const uint8_t zero[8];
			put(w, zero, sz - 16 - feat_size(w, bits[i]));
		}
		return;
	}
	/* file mode: header (rewritten at close), ids, attrs, then data */
	uint8_t hdr[SLT_PERF_FILE_HEADER_SIZE] = { 0 };
	put(w, hdr, sizeof(hdr));
	uint64_t off = sizeof(hdr);
	for (size_t i = 0; i < w->n_ev; i++) {
		put(w, w->ev[i].ids, 8 * w->ev[i].n_ids);
		off += 8 * w->ev[i].n_ids;
	}
	uint64_t ids_off = sizeof(hdr);
	for (size_t i = 0; i < w->n_ev; i++) {
		put(w, &w->ev[i].attr, sizeof(w->ev[i].attr));
		put64(w, ids_off);
		put64(w, 8 * w->ev[i].n_ids);
		ids_off += 8 * w->ev[i].n_ids;
	}
	off += w->n_ev * (sizeof(struct perf_event_attr) + 16);
	w->data_off = off;
}

/* ---- records ---- */

int slt_pdw_record(struct slt_pdw *w, const void *rec, size_t size,
		   struct slt_error *err)
{
	if (size < 8 || size > 65535)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL, "record size %zu out of range", size);
	emit(w, rec, size);
	return w->io_errno ? slt_error_set(err, SLT_EIO, NULL, -1, NULL, "write: %s", strerror(w->io_errno)) : 0;
}

int slt_pdw_sample(struct slt_pdw *w, int ev, const struct slt_pdw_sample *s,
		   struct slt_error *err)
{
	if (ev < 0 || (size_t)ev >= w->n_ev)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL, "no event %d", ev);
	const struct pdw_event *e = &w->ev[ev];
	const uint64_t t = e->attr.sample_type;
	uint64_t buf[65536 / 8];
	size_t n = 1;   /* words; [0] is the header */
#define W(v) do { if (n >= 65536 / 8) goto big; buf[n++] = (v); } while (0)
#define WN(p, k) do { if ((k) > 65536 / 8 - n) goto big; if ((k) != 0) memcpy(buf + n, (p), 8 * (k)); n += (k); } while (0)
#define WB(p, bytes) do { size_t _w = ((bytes) + 7) / 8; if (_w > 65536 / 8 - n) goto big; if (_w) buf[n + _w - 1] = 0; if (bytes) memcpy(buf + n, (p), (bytes)); n += _w; } while (0)
	if (t & PERF_SAMPLE_IDENTIFIER) W(s->id);
	if (t & PERF_SAMPLE_IP) W(s->ip);
	if (t & PERF_SAMPLE_TID) W((uint64_t)s->pid | (uint64_t)s->tid << 32);
	if (t & PERF_SAMPLE_TIME) W(s->time);
	if (t & PERF_SAMPLE_ADDR) W(s->addr);
	if (t & PERF_SAMPLE_ID) W(s->id);
	if (t & PERF_SAMPLE_STREAM_ID) W(s->stream_id);
	if (t & PERF_SAMPLE_CPU) W(s->cpu);
	if (t & PERF_SAMPLE_PERIOD) W(s->period);
	if (t & PERF_SAMPLE_READ) WN(s->read, s->n_read);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		W(s->n_callchain);
		WN(s->callchain, s->n_callchain);
	}
	if (t & PERF_SAMPLE_RAW) {
		/* u32 size + data, padded so the pair ends u64-aligned */
		uint32_t sz = (uint32_t)(((s->raw_size + 4 + 7) & ~7u) - 4);
		uint8_t tmp[65536];
		if (sz + 4 > sizeof(tmp))
			goto big;
		memcpy(tmp, &sz, 4);
		memset(tmp + 4, 0, sz);
		if (s->raw_size)
			memcpy(tmp + 4, s->raw, s->raw_size);
		WB(tmp, (size_t)sz + 4);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		W(s->n_branch);
		if (e->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			W(s->hw_idx);
		WN(s->branch, 3 * s->n_branch);
		if (e->attr.branch_sample_type & SLT_PERF_SAMPLE_BRANCH_COUNTERS)
			WN(s->branch_cntr, s->n_branch);
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		W(s->regs_user_abi);
		if (s->regs_user_abi)
			WN(s->regs_user, e->n_regs_user);
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		W(s->stack_size);
		if (s->stack_size) {
			WB(s->stack, s->stack_size);
			W(s->stack_dyn_size);
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) W(s->weight);
	if (t & PERF_SAMPLE_DATA_SRC) W(s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION) W(s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR) {
		W(s->regs_intr_abi);
		if (s->regs_intr_abi)
			WN(s->regs_intr, e->n_regs_intr);
	}
	if (t & PERF_SAMPLE_PHYS_ADDR) W(s->phys_addr);
	if (t & PERF_SAMPLE_CGROUP) W(s->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE) W(s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE) W(s->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		W(s->aux_size);
		WB(s->aux, s->aux_size);
	}
#undef W
#undef WN
#undef WB
	if (n * 8 > 65535)
		goto big;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, (uint16_t)(n * 8) };
	memcpy(buf, &h, 8);
	return slt_pdw_record(w, buf, n * 8, err);
big:
	return slt_error_set(err, SLT_EUSAGE, NULL, -1, NULL, "sample record over 64 KiB");
}

static int pwrite_all(int fd, const void *b, size_t n, off_t off)
{
	while (n) {
		ssize_t r = pwrite(fd, b, n, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? errno : EIO;
		b = (const uint8_t *)b + r;
		n -= (size_t)r;
		off += r;
	}
	return 0;
}

int slt_pdw_close(struct slt_pdw *w, struct slt_error *err)
{
	if (!w->started)
		start(w);
	if (w->cctx)
		flush_chunk(w);
	if (!(w->flags & SLT_PDW_PIPE)) {
		unsigned bits[8], n = feats(w, bits);
		uint64_t flags[4] = { 0 };
		uint64_t off = w->data_off + w->data_size + 16 * n;
		for (unsigned i = 0; i < n; i++) {
			flags[bits[i] / 64] |= 1ull << (bits[i] % 64);
			put64(w, off);
			put64(w, feat_size(w, bits[i]));
			off += feat_size(w, bits[i]);
		}
		for (unsigned i = 0; i < n; i++)
			feat_put(w, bits[i]);
		flush_out(w);
		uint64_t hdr[13] = {
			0x32454c4946524550ull, SLT_PERF_FILE_HEADER_SIZE,
			sizeof(struct perf_event_attr) + 16,
			SLT_PERF_FILE_HEADER_SIZE + 0, 0, w->data_off, w->data_size, 0, 0,
			flags[0], flags[1], flags[2], flags[3],
		};
		uint64_t ids = 0;
		for (size_t i = 0; i < w->n_ev; i++)
			ids += 8 * w->ev[i].n_ids;
		hdr[3] = SLT_PERF_FILE_HEADER_SIZE + ids;
		hdr[4] = w->n_ev * (sizeof(struct perf_event_attr) + 16);
		if (!w->io_errno)
			w->io_errno = pwrite_all(w->fd, hdr, sizeof(hdr), 0);
	} else {
		flush_out(w);
	}
	int e = w->io_errno;
	for (size_t i = 0; i < w->n_ev; i++)
		free(w->ev[i].ids);
	free(w->ev);
	for (int i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	for (size_t i = 0; i < w->n_bids; i++)
		free(w->bids[i].name);
	free(w->bids);
	free(w->out);
	free(w->chunk);
	ZSTD_freeCCtx(w->cctx);
	free(w);
	return e ? slt_error_set(err, SLT_EIO, NULL, -1, NULL, "write: %s", strerror(e)) : 0;
}
