/* SPDX-License-Identifier: MIT */
/*
 * PERF_RECORD_SAMPLE decoding: every sample_type bit in the order of the
 * kernel's record layout (<linux/perf_event.h>, enum perf_event_type,
 * PERF_RECORD_SAMPLE comment; tools/perf/util/evsel.c
 * evsel__parse_sample() does the same walk).  Every length read from the
 * record is checked against the record size before use.
 */
#include <stdio.h>
#include <string.h>

#include "samples/parsers.h"
#include "samples/perf_data.h"
#include "structlint/error.h"

/* The sample_type bits whose size varies from record to record. */
#define VARIABLE_BITS (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
		       PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | \
		       PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX)

/* Offsets of the fixed layout, in the kernel's order (as decode below). */
static void prepare_fast(uint64_t t, struct slt_perf_fast *f)
{
	int off = 8;
	memset(f, 0, sizeof(*f));
	f->ip = f->tid = f->addr = f->cpu = f->weight = f->data_src = f->phys_addr = -1;
	if (t & VARIABLE_BITS)
		return;
#define AT(bit, field) do { if (t & (bit)) { field = (int16_t)off; off += 8; } } while (0)
#define SKIP(bit) do { if (t & (bit)) off += 8; } while (0)
	SKIP(PERF_SAMPLE_IDENTIFIER);
	AT(PERF_SAMPLE_IP, f->ip);
	AT(PERF_SAMPLE_TID, f->tid);
	SKIP(PERF_SAMPLE_TIME);
	AT(PERF_SAMPLE_ADDR, f->addr);
	SKIP(PERF_SAMPLE_ID);
	SKIP(PERF_SAMPLE_STREAM_ID);
	AT(PERF_SAMPLE_CPU, f->cpu);
	SKIP(PERF_SAMPLE_PERIOD);
	AT(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, f->weight);
	AT(PERF_SAMPLE_DATA_SRC, f->data_src);
	SKIP(PERF_SAMPLE_TRANSACTION);
	AT(PERF_SAMPLE_PHYS_ADDR, f->phys_addr);
	SKIP(PERF_SAMPLE_CGROUP);
	SKIP(PERF_SAMPLE_DATA_PAGE_SIZE);
	SKIP(PERF_SAMPLE_CODE_PAGE_SIZE);
#undef AT
#undef SKIP
	f->weight_struct = !(t & PERF_SAMPLE_WEIGHT);
	f->size = (uint16_t)off;
	f->fixed = true;
}

void slt_perf_attr_prepare(struct slt_perf_attr *a)
{
	a->n_regs_user = (unsigned)__builtin_popcountll(a->attr.sample_regs_user);
	a->n_regs_intr = (unsigned)__builtin_popcountll(a->attr.sample_regs_intr);
	prepare_fast(a->attr.sample_type, &a->fast);
}

int slt_perf_sample_id_pos(uint64_t t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 8;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	int pos = 8;
	if (t & PERF_SAMPLE_IP) pos += 8;
	if (t & PERF_SAMPLE_TID) pos += 8;
	if (t & PERF_SAMPLE_TIME) pos += 8;
	if (t & PERF_SAMPLE_ADDR) pos += 8;
	return pos;
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

void slt_perf_attr_generic_name(const struct perf_event_attr *attr,
				char *buf, size_t size)
{
	if (attr->type == PERF_TYPE_HARDWARE &&
	    attr->config < sizeof(hw_names) / sizeof(hw_names[0]))
		snprintf(buf, size, "%s", hw_names[attr->config]);
	else if (attr->type == PERF_TYPE_SOFTWARE &&
		 attr->config < sizeof(sw_names) / sizeof(sw_names[0]))
		snprintf(buf, size, "%s", sw_names[attr->config]);
	else if (attr->type == PERF_TYPE_RAW)
		snprintf(buf, size, "raw:0x%llx", (unsigned long long)attr->config);
	else
		snprintf(buf, size, "type%u:0x%llx", attr->type,
			 (unsigned long long)attr->config);
}

/* Cursor over one record: every read is bounds-checked. */
struct cur {
	const uint8_t *p;
	size_t off, size;
};

static inline bool take_u64(struct cur *c, uint64_t *v)
{
	if (c->size - c->off < 8)
		return false;
	memcpy(v, c->p + c->off, 8);
	c->off += 8;
	return true;
}

/* Skip n u64 words (n from the record: overflow-checked). */
static inline bool skip_words(struct cur *c, uint64_t n)
{
	if (n > (c->size - c->off) / 8)
		return false;
	c->off += (size_t)n * 8;
	return true;
}

static inline bool skip_bytes(struct cur *c, uint64_t n)
{
	if (n > c->size - c->off)
		return false;
	c->off += (size_t)n;
	return true;
}

static size_t read_words(uint64_t rf, uint64_t nr)
{
	size_t n = 0;
	if (rf & PERF_FORMAT_GROUP) {
		n = 1;  /* nr */
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) n++;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) n++;
		size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		return n + (size_t)nr * per;
	}
	n = 1;
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) n++;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) n++;
	if (rf & PERF_FORMAT_ID) n++;
	if (rf & PERF_FORMAT_LOST) n++;
	return n;
}

size_t slt_pdw_read_words(uint64_t read_format, uint64_t nr)
{
	return read_words(read_format, nr);
}

int slt_perf_sample_decode(const struct slt_perf_attr *a, const uint8_t *rec,
			   size_t size, struct slt_perf_sample *s,
			   size_t *bad_off)
{
	const uint64_t t = a->attr.sample_type;
	struct cur c = { rec, 8, size };
	uint64_t v;

	memset(s, 0, sizeof(*s));
	s->type = t;
#define U64(dst) do { if (!take_u64(&c, &v)) goto bad; (dst) = v; } while (0)
	if (t & PERF_SAMPLE_IDENTIFIER) U64(s->id);
	if (t & PERF_SAMPLE_IP) U64(s->ip);
	if (t & PERF_SAMPLE_TID) {
		U64(v);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (t & PERF_SAMPLE_TIME) U64(s->time);
	if (t & PERF_SAMPLE_ADDR) U64(s->addr);
	if (t & PERF_SAMPLE_ID) U64(s->id);
	if (t & PERF_SAMPLE_STREAM_ID) U64(s->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		U64(v);
		s->cpu = (uint32_t)v;
	}
	if (t & PERF_SAMPLE_PERIOD) U64(s->period);
	if (t & PERF_SAMPLE_READ) {
		uint64_t rf = a->attr.read_format, nr = 0;
		if (rf & PERF_FORMAT_GROUP) {
			if (!take_u64(&c, &nr))
				goto bad;
			c.off -= 8;
			if (nr > size / 8)
				goto bad;
		}
		if (!skip_words(&c, read_words(rf, nr)))
			goto bad;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		U64(s->n_callchain);
		if (!skip_words(&c, s->n_callchain))
			goto bad;
	}
	if (t & PERF_SAMPLE_RAW) {
		/* u32 size + data; the kernel pads so the pair is u64 aligned */
		uint32_t sz;
		if (c.size - c.off < 4)
			goto bad;
		memcpy(&sz, c.p + c.off, 4);
		c.off += 4;
		s->raw_size = sz;
		if (!skip_bytes(&c, sz))
			goto bad;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		U64(s->n_branch);
		if (s->n_branch > size / 24)
			goto bad;
		if (a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			U64(v);
		if (!skip_words(&c, s->n_branch * 3))
			goto bad;
		if (a->attr.branch_sample_type & SLT_PERF_SAMPLE_BRANCH_COUNTERS)
			if (!skip_words(&c, s->n_branch))
				goto bad;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		U64(v);  /* abi: PERF_SAMPLE_REGS_ABI_NONE means no regs */
		if (v && !skip_words(&c, a->n_regs_user))
			goto bad;
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		U64(v);
		if (v) {
			if (!skip_bytes(&c, v))
				goto bad;
			U64(v);  /* dyn_size */
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		U64(v);
		/* WEIGHT_STRUCT: var1_dw (low 32 bits) is the weight, as in
		 * evsel__parse_sample() */
		s->weight = (t & PERF_SAMPLE_WEIGHT) ? v : (v & 0xffffffffu);
	}
	if (t & PERF_SAMPLE_DATA_SRC) U64(s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION) U64(s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR) {
		U64(v);
		if (v && !skip_words(&c, a->n_regs_intr))
			goto bad;
	}
	if (t & PERF_SAMPLE_PHYS_ADDR) U64(s->phys_addr);
	if (t & PERF_SAMPLE_CGROUP) U64(s->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE) U64(s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE) U64(s->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		U64(s->aux_size);
		if (!skip_bytes(&c, s->aux_size))
			goto bad;
	}
#undef U64
	return 0;
bad:
	if (bad_off)
		*bad_off = c.off;
	return SLT_ECORRUPT;
}

/* slt_data_src_decode() through the cache. */
static const struct slt_data_src *decode_dsrc(struct slt_perf_dsrc_cache *c,
					      uint64_t v)
{
	unsigned k = (unsigned)((v ^ v >> 19 ^ v >> 37) & (SLT_PERF_DSRC_CACHE - 1));
	if (!(c->valid >> k & 1) || c->key[k] != v) {
		slt_data_src_decode(v, &c->val[k]);
		c->key[k] = v;
		c->valid |= 1ull << k;
	}
	return &c->val[k];
}

static inline uint64_t rd64(const uint8_t *b)
{
	uint64_t v;
	memcpy(&v, b, 8);
	return v;
}

static inline uint32_t rd32(const uint8_t *b)
{
	uint32_t v;
	memcpy(&v, b, 4);
	return v;
}

int slt_perf_sample_take(const struct slt_perf_attr *a, const uint8_t *rec,
			 size_t size, struct slt_sample *s,
			 struct slt_perf_dsrc_cache *dc, bool *unknown_kind,
			 size_t *bad_off)
{
	const uint64_t t = a->attr.sample_type;
	const struct slt_perf_fast *f = &a->fast;
	uint64_t ip = 0, addr, weight = 0, dsrc = 0, phys = 0;
	uint32_t pid = 0, tid = 0, cpu = 0;
	if (f->fixed && size >= f->size) {
		if (f->addr < 0)
			return 0;
		addr = rd64(rec + f->addr);
		if (f->ip >= 0)
			ip = rd64(rec + f->ip);
		if (f->tid >= 0) {
			pid = rd32(rec + f->tid);
			tid = rd32(rec + f->tid + 4);
		}
		if (f->cpu >= 0)
			cpu = rd32(rec + f->cpu);
		if (f->weight >= 0) {
			weight = rd64(rec + f->weight);
			if (f->weight_struct)
				weight &= 0xffffffffu;  /* var1_dw, as decode */
		}
		if (f->data_src >= 0)
			dsrc = rd64(rec + f->data_src);
		if (f->phys_addr >= 0)
			phys = rd64(rec + f->phys_addr);
	} else {
		struct slt_perf_sample ps;
		if (slt_perf_sample_decode(a, rec, size, &ps, bad_off) < 0)
			return SLT_ECORRUPT;
		if (!(t & PERF_SAMPLE_ADDR))
			return 0;
		addr = ps.addr, ip = ps.ip, weight = ps.weight, dsrc = ps.data_src;
		phys = ps.phys_addr, pid = ps.pid, tid = ps.tid, cpu = ps.cpu;
	}
	/* every field below is written for every sample: no clearing */
	s->flags = SLT_SAMPLE_ADDR;
	s->addr = addr;
	s->event = a->name;
	s->cpu = (t & PERF_SAMPLE_CPU) ? (int32_t)cpu : -1;
	s->pid = (t & PERF_SAMPLE_TID) ? (int32_t)pid : -1;
	s->tid = (t & PERF_SAMPLE_TID) ? (int32_t)tid : -1;
	s->ip = (t & PERF_SAMPLE_IP) ? ip : 0;
	s->phys_addr = (t & PERF_SAMPLE_PHYS_ADDR) ? phys : 0;
	s->data_src = (t & PERF_SAMPLE_DATA_SRC) ? dsrc : 0;
	if (t & PERF_SAMPLE_CPU)
		s->flags |= SLT_SAMPLE_CPU;
	if (t & PERF_SAMPLE_TID)
		s->flags |= SLT_SAMPLE_TID;
	if (t & PERF_SAMPLE_IP)
		s->flags |= SLT_SAMPLE_IP;
	if (t & PERF_SAMPLE_PHYS_ADDR)
		s->flags |= SLT_SAMPLE_PHYS;
	static const struct slt_data_src none;
	const struct slt_data_src *d = &none;
	if (t & PERF_SAMPLE_DATA_SRC) {
		s->flags |= SLT_SAMPLE_DATA_SRC;
		d = decode_dsrc(dc, dsrc);
	}
	s->loads = s->stores = s->cycles = 0;
	s->hitm_local = s->hitm_remote = s->peer_local = s->peer_remote = 0;
	*unknown_kind = slt_sample_count_access(
		s, d, t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT), weight);
	return 1;
}

int slt_perf_sample_fields(const struct slt_perf_attr *a, const uint8_t *rec,
			   size_t size, struct slt_perf_sample *s)
{
	const struct slt_perf_fast *f = &a->fast;
	if (!f->fixed)
		return slt_perf_sample_decode(a, rec, size, s, NULL);
	if (size < f->size)
		return SLT_ECORRUPT;
	s->type = a->attr.sample_type;
	s->ip = f->ip >= 0 ? rd64(rec + f->ip) : 0;
	s->pid = f->tid >= 0 ? rd32(rec + f->tid) : 0;
	s->tid = f->tid >= 0 ? rd32(rec + f->tid + 4) : 0;
	s->cpu = f->cpu >= 0 ? rd32(rec + f->cpu) : 0;
	s->addr = f->addr >= 0 ? rd64(rec + f->addr) : 0;
	return 0;
}
