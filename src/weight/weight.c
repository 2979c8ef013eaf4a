/* SPDX-License-Identifier: MIT */
/*
 * The IP-sample weighting pass (structlint/weight.h): one read of the
 * perf.data that relocates memory samples and counts the IP samples;
 * when only IP samples are there, the access map and the basic blocks of
 * the asked types, a second read that charges each IP sample to its
 * block per writer (thread), and the typed records built from the counts.
 */
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples/perf_data.h"
#include "structlint/access.h"
#include "structlint/layout.h"
#include "structlint/weight.h"
#include "weight/weight_int.h"

#define MAX_CPUS 4096   /* writers */

struct writer {
	uint64_t key;     /* 1 << 32 | tid, or 2 << 32 | cpu */
	uint32_t index;
	bool used;
};

struct pass {
	struct ipw_image im;
	struct ipw_blocks bl;
	bool weigh;               /* second pass: count IP samples */
	uint64_t *counts;         /* [cpu * bl.n + block] */
	/* call-derived sites (SLT_VIA_CALL): each gets only the samples at
	 * its call instruction, not its block's (the callee's time is the
	 * callee's; the caller's other instructions are theirs) */
	long *call_of;            /* [bl.n_sites]: index among the calls, -1 */
	size_t n_calls;
	uint64_t *call_counts;    /* [cpu * n_calls + call] */
	size_t n_cpus;            /* columns allocated */
	slt_sample_cb cb;
	void *ctx;
	struct slt_ipw_info *wi;
	int oom;
	/* writers (writer_index()): threads, or CPUs where no thread is named */
	struct writer *slots;
	size_t cap, n_writers;
	uint64_t last_key;
	uint32_t last_writer;
};

/* The writer index of a sample: its thread (tid) wherever the sample
 * names one, so a thread that migrated between CPUs is one writer and two
 * threads that shared a CPU are two; the CPU only for tid 0 (each CPU's
 * idle task) and for samples without TID.  Writers are numbered 0.. in
 * order of appearance; the keys live in an open-addressing table. */
static uint32_t writer_index(struct pass *p, uint64_t key)
{
	if (p->last_key == key && p->n_writers)
		return p->last_writer;
	if (2 * (p->n_writers + 1) > p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 64;
		struct writer *t = calloc(nc, sizeof(*t));
		if (!t)
			return MAX_CPUS;
		for (size_t i = 0; i < p->cap; i++) {
			if (!p->slots[i].used)
				continue;
			size_t h = (size_t)(p->slots[i].key * 0x9e3779b97f4a7c15ull) & (nc - 1);
			while (t[h].used)
				h = (h + 1) & (nc - 1);
			t[h] = p->slots[i];
		}
		free(p->slots);
		p->slots = t;
		p->cap = nc;
	}
	size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull) & (p->cap - 1);
	while (p->slots[h].used && p->slots[h].key != key)
		h = (h + 1) & (p->cap - 1);
	if (!p->slots[h].used) {
		if (p->n_writers == MAX_CPUS)
			return MAX_CPUS;
		p->slots[h] = (struct writer){key, (uint32_t)p->n_writers++, true};
	}
	p->last_key = key;
	return p->last_writer = p->slots[h].index;
}

static int grow_cpus(struct pass *p, uint32_t cpu)
{
	size_t nc = p->n_cpus ? p->n_cpus : 4;
	while (nc <= cpu)
		nc *= 2;
	uint64_t *c = realloc(p->counts, nc * p->bl.n * sizeof(*c));
	if (!c)
		return SLT_ENOMEM;
	memset(c + p->n_cpus * p->bl.n, 0, (nc - p->n_cpus) * p->bl.n * sizeof(*c));
	p->counts = c;
	uint64_t *k = realloc(p->call_counts, (nc * p->n_calls + 1) * sizeof(*k));
	if (!k)
		return SLT_ENOMEM;
	memset(k + p->n_cpus * p->n_calls, 0, (nc - p->n_cpus) * p->n_calls * sizeof(*k));
	p->call_counts = k;
	p->n_cpus = nc;
	return 0;
}

/* Memory samples: relocate, pass on. */
static int on_mem(void *ctx, const struct slt_sample *s)
{
	struct pass *p = ctx;
	struct slt_sample r = *s;
	uint64_t a;
	p->wi->mem_samples++;
	if (p->weigh)
		return 0;
	/* the data address: in the binary's image (globals, .bss) */
	if ((s->flags & SLT_SAMPLE_TID) && s->pid >= 0 &&
	    ipw_image_reloc(&p->im, (uint32_t)s->pid, false, s->addr, &a)) {
		r.addr = a;
		p->wi->mem_relocated++;
	} else if (p->im.kernel && ipw_image_reloc(&p->im, 0, true, s->addr, &a)) {
		r.addr = a;
		p->wi->mem_relocated++;
	}
	if ((s->flags & SLT_SAMPLE_IP) &&
	    ipw_image_reloc(&p->im, (uint32_t)s->pid, p->im.kernel, s->ip, &a))
		r.ip = a;
	return p->cb ? p->cb(p->ctx, &r) : 0;
}

static int on_rec(void *ctx, const struct slt_perf_attr *a, const uint8_t *rec,
		  size_t size, uint64_t off)
{
	struct pass *p = ctx;
	(void)off;
	if (!a)
		return ipw_image_record(&p->im, rec, size) ? (p->oom = 1) : 0;
	if (!(a->attr.sample_type & PERF_SAMPLE_IP))
		return 0;
	p->wi->ip_samples++;
	if (!p->weigh) {
		if (!p->wi->event[0])
			snprintf(p->wi->event, sizeof(p->wi->event), "%s", a->name);
		return 0;
	}
	struct slt_perf_sample s;
	if (slt_perf_sample_fields(a, rec, size, &s))
		return 0;   /* a short record: the reader checked the rest */
	uint16_t misc;
	memcpy(&misc, rec + 4, 2);
	bool kmode = (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	uint64_t ip;
	if (!ipw_image_reloc(&p->im, s.pid, kmode, s.ip, &ip)) {
		p->wi->ip_other++;
		return 0;
	}
	p->wi->ip_in_binary++;
	long b = ipw_blocks_find(&p->bl, ip);
	if (b < 0)
		return 0;
	uint64_t key = 2ull << 32;   /* no TID, no CPU: one writer */
	if ((a->attr.sample_type & PERF_SAMPLE_TID) && s.tid)
		key = 1ull << 32 | s.tid;
	else if (a->attr.sample_type & PERF_SAMPLE_CPU)
		key = 2ull << 32 | s.cpu;
	if (key >> 32 == 1)
		p->wi->by_thread = true;
	uint32_t cpu = writer_index(p, key);
	if (cpu >= MAX_CPUS)
		return 0;
	if (cpu >= p->n_cpus && grow_cpus(p, cpu))
		return p->oom = 1;
	p->counts[(size_t)cpu * p->bl.n + (size_t)b]++;
	p->wi->ip_on_blocks++;
	const struct ipw_block *blk = &p->bl.b[b];
	for (uint32_t k = 0; p->n_calls && k < blk->n_sites; k++) {
		long c = p->call_of[blk->site0 + k];
		const struct slt_access_site *st = p->bl.sites[blk->site0 + k];
		if (c >= 0 && ip >= st->pc && ip < st->pc + (st->insn_len ? st->insn_len : 1))
			p->call_counts[(size_t)cpu * p->n_calls + (size_t)c]++;
	}
	return 0;
}

/* Number the call-derived sites of the blocks. */
static int index_calls(struct pass *p)
{
	if (!(p->call_of = calloc(p->bl.n_sites + 1, sizeof(*p->call_of))))
		return SLT_ENOMEM;
	for (size_t i = 0; i < p->bl.n_sites; i++)
		p->call_of[i] = p->bl.sites[i]->via == SLT_VIA_CALL ? (long)p->n_calls++ : -1;
	return 0;
}

/* The layout of site's struct among o->layouts (parallel to o->types),
 * or NULL. */
static const struct slt_struct *site_layout(const struct slt_ipw_opts *o,
					    const struct slt_access_site *st)
{
	for (size_t i = 0; o->layouts && i < o->n_types; i++)
		if (o->layouts[i].size == st->type_size && !strcmp(o->types[i], st->type))
			return &o->layouts[i];
	return NULL;
}

/* The typed records: one per (site, CPU) with samples and per member the
 * site's bytes cover (each with the site's whole estimate, the map's rule:
 * slt_access_site_members()), each with its function and its source line
 * from the line table ("file.c:123"; the join keeps its own copy of the
 * strings). */
static int emit(struct pass *p, struct slt_access_map *map,
		const struct slt_ipw_opts *o)
{
	long leaves[SLT_ACCESS_SITE_MEMBERS_MAX];
	struct slt_sample s;
	char source[512];
	memset(&s, 0, sizeof(s));
	s.node = -1;
	s.pid = s.tid = -1;
	s.event = "IP samples x static sites";
	s.flags = SLT_SAMPLE_TYPE | SLT_SAMPLE_CPU | SLT_SAMPLE_IP;
	for (size_t b = 0; b < p->bl.n; b++) {
		const struct ipw_block *blk = &p->bl.b[b];
		for (size_t c = 0; c < p->n_cpus; c++) {
			uint64_t n = p->counts[c * p->bl.n + b];
			if (!n)
				continue;
			for (uint32_t k = 0; k < blk->n_sites; k++) {
				const struct slt_access_site *st = p->bl.sites[blk->site0 + k];
				long ci = p->call_of[blk->site0 + k];
				uint64_t m = ci < 0 ? n : p->call_counts[c * p->n_calls + (size_t)ci];
				if (!m)
					continue;
				s.type_name = st->type;
				s.cpu = (int32_t)c;
				s.ip = st->pc;
				s.symbol = st->func < map->n_funcs ? map->funcs[st->func].name : NULL;
				const char *file;
				uint32_t line;
				s.source = NULL;
				if (!slt_access_site_source(map, st, &file, &line) && file[0] &&
				    snprintf(source, sizeof(source), "%s:%" PRIu32, file, line) <
					    (int)sizeof(source))
					s.source = source;
				s.loads = (st->kind & SLT_ACCESS_LOAD) ? m : 0;
				s.stores = (st->kind & SLT_ACCESS_STORE) ? m : 0;
				const struct slt_struct *ly = site_layout(o, st);
				size_t nl = ly && st->width > 1 ?
					slt_access_site_members(ly, st, leaves,
								SLT_ACCESS_SITE_MEMBERS_MAX) : 0;
				uint64_t lo = (uint64_t)st->offset, hi = lo + st->width;
				for (size_t l = 0; l < (nl > 1 ? nl : 1); l++) {
					s.type_offset = lo;
					s.access_size = st->width;
					if (nl > 1) {   /* the bytes of leaves[l] it covers */
						const struct slt_member *mb = &ly->members[leaves[l]];
						uint64_t a = mb->offset > lo ? mb->offset : lo;
						uint64_t e = mb->offset + mb->size < hi ?
							mb->offset + mb->size : hi;
						s.type_offset = a;
						s.access_size = (uint32_t)(e - a);
					}
					p->wi->site_loads += s.loads;
					p->wi->site_stores += s.stores;
					if (st->kind & SLT_ACCESS_ATOMIC)
						p->wi->site_rmw += m;
					int rc = p->cb ? p->cb(p->ctx, &s) : 0;
					if (rc)
						return rc;
				}
			}
		}
	}
	return 0;
}

typedef int (*reader_fn)(void *src, struct pass *p, struct slt_samples_info *info,
			 struct slt_error *err);

struct mem_src { const void *data; size_t size; const char *name; };

static int read_path(void *src, struct pass *p, struct slt_samples_info *info,
		     struct slt_error *err)
{
	return slt_perf_data_read_hook(src, on_mem, p, on_rec, p, info, err);
}

static int read_mem(void *src, struct pass *p, struct slt_samples_info *info,
		    struct slt_error *err)
{
	const struct mem_src *m = src;
	return slt_perf_data_read_mem_hook(m->data, m->size, m->name, on_mem, p,
					   on_rec, p, info, err);
}

static int run(reader_fn rd, void *src, const char *name,
	       const struct slt_ipw_opts *o, slt_sample_cb cb, void *ctx,
	       struct slt_samples_info *info, struct slt_ipw_info *wi,
	       struct slt_error *err)
{
	struct slt_samples_info dummy_info;
	struct slt_ipw_info dummy_wi;
	struct pass p = {.cb = cb, .ctx = ctx};
	struct slt_access_map *own = NULL;
	if (!info)
		info = &dummy_info;
	if (!wi)
		wi = &dummy_wi;
	memset(wi, 0, sizeof(*wi));
	p.wi = wi;
	/* a binary that cannot be placed (no PT_LOAD: a .o; not ELF: raw
	 * BTF) leaves memory samples as they are; only the estimate needs it */
	struct slt_error ierr;
	slt_error_clear(&ierr);
	int irc = ipw_image_open(&p.im, o->binary, &ierr);
	if (irc) {
		ipw_image_free(&p.im);
		p.im.lo = 1;   /* an empty image: nothing relocates */
	}
	wi->kernel = p.im.kernel;
	int rc;
	rc = rd(src, &p, info, err);
	if (!rc && p.oom)
		rc = slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
	wi->mmaps = p.im.mmaps;
	wi->kernel_mmap = p.im.kmap;
	wi->kaslr_offset = p.im.koff;
	if (!rc && p.im.other_id[0]) {   /* samples of another build */
		char fid[41];
		ipw_hex_id(p.im.build_id, p.im.build_id_len, fid);
		rc = slt_error_set(err, SLT_EUSAGE, name, -1,
				   "give the binary that ran; perf buildid-list -i DATA lists the recorded build-ids",
				   "the samples' %s has build-id %s, %s has %s: not the binary that ran",
				   p.im.kernel ? "[kernel.kallsyms]" : p.im.base, p.im.other_id,
				   o->binary, fid);
		goto out;
	}
	if (rc || wi->mem_samples || !wi->ip_samples)
		goto out;
	/* only IP samples: estimate from the static sites */
	if (irc) {
		*err = ierr;
		rc = irc;
		goto out;
	}
	struct slt_access_map *map = o->map;
	if (!map && o->get_map) {
		if ((rc = o->get_map(o->get_map_ctx, &own, err)))
			goto out;
		map = own;
	}
	if (!map) {
		struct slt_access_opts ao = {.types = o->types, .n_types = o->n_types};
		if ((rc = slt_access_build(o->binary, &ao, &own, err)))
			goto out;
		map = own;
	}
	if ((rc = ipw_blocks_build(o->binary, map, o->types, o->n_types, &p.bl, err)))
		goto out;
	wi->n_blocks = p.bl.n;
	wi->n_sites = p.bl.n_sites;
	ipw_image_reset(&p.im);
	uint64_t ip_total = wi->ip_samples;
	wi->ip_samples = wi->mem_samples = 0;
	p.weigh = true;
	if ((rc = index_calls(&p)) || (p.bl.n && (rc = grow_cpus(&p, 0))))
		rc = slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
	if (!rc)
		rc = rd(src, &p, info, err);
	if (!rc && p.oom)
		rc = slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
	wi->ip_samples = ip_total;
	wi->estimated = true;
	if (snprintf(wi->basis, sizeof(wi->basis),
		 SLT_IPW_BASIS " (%" PRIu64 " of %" PRIu64 " %s samples used: on %" PRIu64
		 " basic blocks with sites; %" PRIu64 " in %s%s)",
		 wi->ip_on_blocks, wi->ip_samples, wi->event[0] ? wi->event : "IP",
		 wi->n_blocks, wi->ip_in_binary, p.im.base,
		 wi->by_thread ? "; writers are threads (tid), 0.. in order of appearance" : "") >=
	    (int)sizeof(wi->basis))
		wi->basis[sizeof(wi->basis) - 1] = 0;   /* cut, still NUL-ended */
	if (!rc)
		rc = emit(&p, map, o);
	info->samples = wi->site_loads + wi->site_stores;
	memcpy(info->detail, wi->basis, sizeof(info->detail) < sizeof(wi->basis) ?
	       sizeof(info->detail) : sizeof(wi->basis));
	info->detail[sizeof(info->detail) - 1] = 0;
out:
	free(p.counts);
	free(p.call_counts);
	free(p.call_of);
	free(p.slots);
	ipw_blocks_free(&p.bl);
	ipw_image_free(&p.im);
	slt_access_free(own);
	return rc;
}

int slt_ipw_read(const char *path, const struct slt_ipw_opts *opts,
		 slt_sample_cb cb, void *ctx, struct slt_samples_info *info,
		 struct slt_ipw_info *wi, struct slt_error *err)
{
	return run(read_path, (void *)path, path, opts, cb, ctx, info, wi, err);
}

int slt_ipw_read_mem(const void *data, size_t size, const char *name,
		     const struct slt_ipw_opts *opts, slt_sample_cb cb,
		     void *ctx, struct slt_samples_info *info,
		     struct slt_ipw_info *wi, struct slt_error *err)
{
	struct mem_src m = {data, size, name ? name : "<memory>"};
	return run(read_mem, &m, m.name, opts, cb, ctx, info, wi, err);
}
