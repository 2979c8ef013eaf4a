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

#include "samples/perf_data.h"
#include "structlint/error.h"

void slt_perf_attr_prepare(struct slt_perf_attr *a)
{
	a->n_regs_user = (unsigned)__builtin_popcountll(a->attr.sample_regs_user);
	a->n_regs_intr = (unsigned)__builtin_popcountll(a->attr.sample_regs_intr);
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
