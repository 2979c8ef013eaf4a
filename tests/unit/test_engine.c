/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the reference stats engine (include/structlint/engine.h):
 * exact totals after flushes under any interleaving (several threads, both
 * flush modes, every batch), role binding (built-in maps on 6.1- and
 * 6.12-shaped layouts, unknown members, layouts too small), histogram
 * bucketing, the exact access counts against what the update path, the
 * flush and the replay did, the written profile read back, joined and
 * classified, and bad options.  Runs use max_updates, never timing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "structlint/engine.h"
#include "structlint/join.h"
#include "structlint/profile.h"

struct fake_member {
	const char *name, *type;
	uint64_t offset, size;
};

/* A flat struct of top-level members (what the engine binds against). */
static struct slt_struct *make_struct(const char *name, uint64_t size,
				      const struct fake_member *fm, size_t n)
{
	struct slt_struct *s = calloc(1, sizeof(*s));
	struct slt_member *m = calloc(n, sizeof(*m));
	assert_non_null(s);
	assert_non_null(m);
	for (size_t i = 0; i < n; i++) {
		m[i].name = fm[i].name;
		m[i].type = fm[i].type;
		m[i].decl_head = fm[i].type;
		m[i].decl_tail = "";
		m[i].offset = fm[i].offset;
		m[i].size = fm[i].size;
		m[i].parent = -1;
		m[i].natural_alignment = 8;
	}
	s->name = name;
	s->kind = SLT_KIND_STRUCT;
	s->size = size;
	s->alignment = 8;
	s->members = m;
	s->n_members = s->n_top_members = n;
	return s;
}

static void free_struct(struct slt_struct *s)
{
	free(s->members);
	free(s);
}

/* Debian 6.1.0-57's struct mem_cgroup_per_node, offsets and sizes as
 * pahole prints them. */
static const struct fake_member memcg61[] = {
	{ "lruvec", "struct lruvec", 0, 1592 },
	{ "lruvec_stats_percpu", "struct lruvec_stats_percpu *", 1592, 8 },
	{ "lruvec_stats", "struct lruvec_stats", 1600, 688 },
	{ "lru_zone_size", "long unsigned int[5][5]", 2288, 200 },
	{ "iter", "struct mem_cgroup_reclaim_iter", 2488, 16 },
	{ "shrinker_info", "struct shrinker_info *", 2504, 8 },
	{ "tree_node", "struct rb_node", 2512, 24 },
	{ "usage_in_excess", "long unsigned int", 2536, 8 },
	{ "on_tree", "bool", 2544, 1 },
	{ "memcg", "struct mem_cgroup *", 2552, 8 },
};

/* Debian 6.12's, with the 2024 fix's CACHELINE_PADDING. */
static const struct fake_member memcg612[] = {
	{ "memcg", "struct mem_cgroup *", 0, 8 },
	{ "lruvec_stats_percpu", "struct lruvec_stats_percpu *", 8, 8 },
	{ "lruvec_stats", "struct lruvec_stats *", 16, 8 },
	{ "shrinker_info", "struct shrinker_info *", 24, 8 },
	{ "_pad1_", "struct cacheline_padding", 64, 0 },
	{ "lruvec", "struct lruvec", 64, 1560 },
	{ "_pad2_", "struct cacheline_padding", 1664, 0 },
	{ "lru_zone_size", "long unsigned int[5][5]", 1664, 200 },
	{ "iter", "struct mem_cgroup_reclaim_iter", 1864, 16 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct slt_engine_bound_role *role_of(const struct slt_engine_bound *b,
						   const char *member, size_t *idx)
{
	for (size_t k = 0; k < b->n_roles; k++)
		if (!strcmp(b->roles[k].member, member)) {
			if (idx)
				*idx = k;
			return &b->roles[k];
		}
	fail_msg("no role for %s", member);
	return NULL;
}

static struct slt_engine_bound *bind_builtin(const struct slt_struct *s)
{
	struct slt_engine_spec *spec = NULL;
	struct slt_engine_bound *b = NULL;
	struct slt_error err;
	assert_int_equal(slt_engine_spec_builtin(s->name, s, &spec, &err), 0);
	assert_int_equal(slt_engine_bind(spec, s, 64, &b, &err), 0);
	slt_engine_spec_free(spec);
	return b;
}

static void test_bind_builtin(void **state)
{
	(void)state;
	struct slt_struct *s61 = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_struct *s612 = make_struct("mem_cgroup_per_node", 1920, memcg612, N(memcg612));
	struct slt_engine_bound *b = bind_builtin(s61);
	assert_int_equal(b->mode, SLT_ENGINE_STATS);
	assert_int_equal(b->n_roles, 7);
	const struct slt_engine_bound_role *r = role_of(b, "memcg", NULL);
	assert_int_equal(r->role, SLT_ROLE_BACK_PTR);
	assert_int_equal(r->offset, 2552);
	assert_int_equal(r->first_line, 39);
	r = role_of(b, "lruvec_stats_percpu", NULL);
	assert_int_equal(r->role, SLT_ROLE_PERCPU_PTR);
	assert_int_equal(r->offset, 1592);
	assert_int_equal(r->first_line, 24);
	r = role_of(b, "lruvec_stats", NULL);   /* embedded in 6.1: the flush writes it */
	assert_int_equal(r->role, SLT_ROLE_FLUSH_WRITE);
	assert_int_equal(r->size, 688);
	assert_int_equal(r->first_line, 25);
	assert_int_equal(r->last_line, 35);
	r = role_of(b, "lruvec", NULL);
	assert_int_equal(r->role, SLT_ROLE_HOT_WRITE);
	assert_int_equal(r->last_line, 24);
	assert_int_equal(role_of(b, "iter", NULL)->role, SLT_ROLE_HOT_WRITE);
	assert_int_equal(role_of(b, "shrinker_info", NULL)->role, SLT_ROLE_READ);
	slt_engine_bound_free(b);

	b = bind_builtin(s612);
	r = role_of(b, "lruvec_stats", NULL);   /* a pointer from 6.10 on */
	assert_int_equal(r->role, SLT_ROLE_READ);
	assert_int_equal(r->offset, 16);
	assert_int_equal(role_of(b, "lruvec", NULL)->first_line, 1);
	slt_engine_bound_free(b);

	/* with 128-byte lines the same member sits on other line numbers */
	struct slt_engine_spec *spec = NULL;
	assert_int_equal(slt_engine_spec_builtin("struct mem_cgroup_per_node", s61, &spec, NULL), 0);
	assert_int_equal(slt_engine_bind(spec, s61, 128, &b, NULL), 0);
	assert_int_equal(role_of(b, "memcg", NULL)->first_line, 19);
	slt_engine_bound_free(b);
	slt_engine_spec_free(spec);

	/* cgroup: rstat_flush_next is optional (6.8+) */
	static const struct fake_member cg61[] = {
		{ "rstat_cpu", "struct cgroup_rstat_cpu *", 920, 8 },
		{ "rstat_css_list", "struct list_head", 928, 16 },
		{ "last_bstat", "struct cgroup_base_stat", 944, 24 },
		{ "bstat", "struct cgroup_base_stat", 968, 24 },
	};
	struct slt_struct *cg = make_struct("cgroup", 1792, cg61, N(cg61));
	b = bind_builtin(cg);
	assert_int_equal(b->n_roles, 4);
	assert_int_equal(role_of(b, "rstat_cpu", NULL)->role, SLT_ROLE_PERCPU_PTR);
	assert_int_equal(role_of(b, "rstat_css_list", NULL)->role, SLT_ROLE_FLUSH_READ);
	assert_int_equal(role_of(b, "bstat", NULL)->role, SLT_ROLE_FLUSH_WRITE);
	slt_engine_bound_free(b);
	free_struct(cg);
	free_struct(s61);
	free_struct(s612);
}

static void test_bind_errors(void **state)
{
	(void)state;
	struct slt_error err;
	struct slt_engine_spec *spec = NULL;
	struct slt_engine_bound *b = NULL;

	/* no built-in map */
	slt_error_clear(&err);
	assert_int_equal(slt_engine_spec_builtin("task_struct", NULL, &spec, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "task_struct"));
	assert_null(spec);

	/* unknown member: named, with a suggestion */
	struct slt_struct *s61 = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_engine_replay_member rm[] = {
		{ "memcg", SLT_CLASS_READ_MOSTLY, 10, 0, 0 },
		{ "lruvek", SLT_CLASS_HOT_WRITE, 0, 10, 0 },
	};
	assert_int_equal(slt_engine_spec_replay("mem_cgroup_per_node", rm, 2, &spec, NULL), 0);
	slt_error_clear(&err);
	assert_int_equal(slt_engine_bind(spec, s61, 64, &b, &err), SLT_EUSAGE);
	assert_null(b);
	assert_non_null(strstr(err.message, "no member lruvek"));
	assert_non_null(strstr(err.hint, "lruvec"));
	slt_engine_spec_free(spec);

	/* a pointer role in a 4-byte member: too small */
	struct fake_member small[N(memcg61)];
	memcpy(small, memcg61, sizeof(small));
	small[9].size = 4;
	small[9].type = "int";
	struct slt_struct *ss = make_struct("mem_cgroup_per_node", 2560, small, N(small));
	assert_int_equal(slt_engine_spec_builtin("mem_cgroup_per_node", ss, &spec, NULL), 0);
	slt_error_clear(&err);
	assert_int_equal(slt_engine_bind(spec, ss, 64, &b, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "memcg"));
	assert_non_null(strstr(err.message, "too small"));
	free_struct(ss);

	/* a layout smaller than its members' offsets */
	ss = make_struct("mem_cgroup_per_node", 2048, memcg61, N(memcg61));
	slt_error_clear(&err);
	assert_int_equal(slt_engine_bind(spec, ss, 64, &b, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "too small"));
	free_struct(ss);

	/* a pointer overlapping a hot-written member */
	memcpy(small, memcg61, sizeof(small));
	small[4].offset = 2536;  /* iter (hot-write) now covers memcg's bytes */
	small[4].size = 24;
	ss = make_struct("mem_cgroup_per_node", 2560, small, N(small));
	slt_error_clear(&err);
	assert_int_equal(slt_engine_bind(spec, ss, 64, &b, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "overlap"));
	free_struct(ss);
	slt_engine_spec_free(spec);

	/* replay with nothing to replay */
	struct slt_engine_replay_member cold[] = { { "memcg", SLT_CLASS_COLD, 1, 1, 0 } };
	slt_error_clear(&err);
	assert_int_equal(slt_engine_spec_replay("x", cold, 1, &spec, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "nothing to replay"));
	free_struct(s61);
}

static void test_hist_buckets(void **state)
{
	(void)state;
	static const struct { uint64_t ns; unsigned bucket; } cases[] = {
		{ 0, 0 }, { 999, 0 }, { 1000, 1 }, { 4999, 1 }, { 5000, 2 },
		{ 9999, 2 }, { 10000, 3 }, { 14999, 3 }, { 15000, 4 }, { 20000, 5 },
		{ 25000, 6 }, { 29999, 6 }, { 30000, 7 }, { 39999, 7 }, { 40000, 8 },
		{ 50000, 9 }, { 60000, 10 }, { 70000, 11 }, { 80000, 12 },
		{ 89999, 12 }, { 90000, 13 }, { 10000000000ull, 13 },
	};
	struct slt_engine_hist h, h2;
	memset(&h, 0, sizeof(h));
	for (size_t i = 0; i < N(cases); i++) {
		assert_int_equal(slt_engine_hist_bucket(cases[i].ns), cases[i].bucket);
		slt_engine_hist_add(&h, cases[i].ns);
	}
	assert_int_equal(h.holds, N(cases));
	assert_int_equal(h.count[0], 2);
	assert_int_equal(h.count[13], 2);
	assert_int_equal(h.max_ns, 10000000000ull);
	assert_string_equal(slt_engine_hist_label(0), "0-1");
	assert_string_equal(slt_engine_hist_label(7), "30-40");
	assert_string_equal(slt_engine_hist_label(13), ">90");
	memset(&h2, 0, sizeof(h2));
	slt_engine_hist_add(&h2, 95000);
	slt_engine_hist_merge(&h, &h2);
	assert_int_equal(h.count[13], 3);
	assert_int_equal(h.holds, N(cases) + 1);
}

static struct slt_engine_opts exact_opts(unsigned threads, unsigned batch,
					 enum slt_engine_flush flush, uint64_t seed)
{
	struct slt_engine_opts o;
	slt_engine_opts_default(&o);
	o.threads = threads;
	o.seconds = 600;         /* an upper bound only: max_updates ends it */
	o.batch = batch;
	o.flush = flush;
	o.depth = 3;
	o.fanout = 3;
	o.seed = seed;
	o.pin = false;
	o.max_updates = 20000;
	return o;
}

/* total[g] == sum of added[] over g's subtree, for every group. */
static void check_exact(const struct slt_engine_result *r)
{
	int64_t *sub = calloc(r->n_groups, sizeof(*sub));
	int64_t all = 0;
	assert_non_null(sub);
	/* breadth-first order: children after parents, so walk backwards */
	for (size_t g = r->n_groups; g-- > 0;) {
		sub[g] += r->added[g];
		all += r->added[g];
		if (r->parent[g] >= 0) {
			assert_true((size_t)r->parent[g] < g);
			sub[r->parent[g]] += sub[g];
		}
	}
	for (size_t g = 0; g < r->n_groups; g++)
		assert_int_equal(r->total[g], sub[g]);
	assert_int_equal(r->total[0], all);
	assert_true(all >= (int64_t)r->ops);  /* every value is 1..7 */
	free(sub);
}

static void test_exact_totals(void **state)
{
	(void)state;
	struct slt_struct *s = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_engine_bound *b = bind_builtin(s);
	static const unsigned batches[] = { 32, 64, 128 };
	static const enum slt_engine_flush modes[] = { SLT_FLUSH_LIST, SLT_FLUSH_POP };
	uint64_t seed = 7;
	for (unsigned t = 2; t <= 3; t++)
		for (size_t bi = 0; bi < N(batches); bi++)
			for (size_t mi = 0; mi < N(modes); mi++) {
				struct slt_engine_opts o = exact_opts(t, batches[bi], modes[mi], seed++);
				struct slt_engine_result *r = NULL;
				struct slt_error err;
				assert_int_equal(slt_engine_run(b, &o, &r, &err), 0);
				assert_int_equal(r->threads, t);
				assert_int_equal(r->ops, (uint64_t)t * o.max_updates);
				assert_int_equal(r->n_groups, 13);
				assert_true(r->flushes >= 1);     /* at least the final one */
				check_exact(r);
				/* the leaves got the updates, inner groups none */
				for (size_t g = 0; g < 4; g++)
					assert_int_equal(r->added[g], 0);
				slt_engine_result_free(r);
			}
	slt_engine_bound_free(b);
	free_struct(s);
}

/* The updater that stores to hot-write role k (engine.h): its writer
 * group's thread (g - 1) % threads, else round-robin, the h-th role
 * without a group on thread h % threads. */
static unsigned hot_writer(const struct slt_engine_bound *b, size_t k, unsigned threads)
{
	if (b->roles[k].writer)
		return (b->roles[k].writer - 1) % threads;
	unsigned h = 0;
	for (size_t i = 0; i < k; i++)
		h += b->roles[i].role == SLT_ROLE_HOT_WRITE && !b->roles[i].writer;
	return h % threads;
}

/* The exact counts are what the update path and the flush did. */
static void test_access_counts(void **state)
{
	(void)state;
	struct slt_struct *s = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_engine_bound *b = bind_builtin(s);
	struct slt_engine_opts o = exact_opts(2, 64, SLT_FLUSH_LIST, 3);
	o.max_updates = 10001;
	o.write_every = 4;
	struct slt_engine_result *r = NULL;
	assert_int_equal(slt_engine_run(b, &o, &r, NULL), 0);
	assert_int_equal(r->n_access_threads, 3);
	assert_int_equal(r->n_roles, b->n_roles);
	uint64_t M = o.max_updates, W = M / o.write_every;
	for (unsigned t = 0; t < 3; t++)
		for (size_t k = 0; k < b->n_roles; k++) {
			const struct slt_engine_bound_role *br = &b->roles[k];
			const struct slt_engine_access *a = &r->access[t * b->n_roles + k];
			uint64_t lines = br->last_line - br->first_line + 1;
			uint64_t loads = 0, stores = 0;
			bool flusher = t == 2;
			switch (br->role) {
			case SLT_ROLE_BACK_PTR: loads = flusher ? 0 : M; break;
			case SLT_ROLE_PERCPU_PTR: loads = flusher ? r->flushed_groups : M; break;
			case SLT_ROLE_READ: loads = flusher ? 0 : M * lines; break;
			case SLT_ROLE_HOT_WRITE:  /* one writer (hot_writer) */
				stores = !flusher && hot_writer(b, k, 2) == t ? W * lines : 0;
				break;
			case SLT_ROLE_FLUSH_READ: loads = flusher ? r->flushed_groups * lines : 0; break;
			case SLT_ROLE_FLUSH_WRITE: stores = flusher ? r->flushed_groups * lines : 0; break;
			case SLT_ROLE_FLUSH_LINK: stores = flusher ? r->flushed_groups * lines : 0; break;
			}
			assert_int_equal(a->loads, loads);
			assert_int_equal(a->stores, stores);
		}
	assert_true(r->flushed_groups > 0);
	slt_engine_result_free(r);
	slt_engine_bound_free(b);
	free_struct(s);
}

/* cgroup_rstat_cpu(cgrp, cpu) loads cgrp->rstat_cpu for every group the
 * tree walks visit (the update's speculative test and marking, the
 * flush's pop), so the per-CPU lock's holds touch the object's line; the
 * list flush stores rstat_flush_next (flush-link) once per flushed group.
 * memcg's tree is not in its object: its pointer is loaded once per
 * update (test_access_counts). */
static void test_cgroup_tree_walk(void **state)
{
	(void)state;
	static const struct fake_member cg612[] = {
		{ "rstat_cpu", "struct cgroup_rstat_cpu *", 960, 8 },
		{ "rstat_css_list", "struct list_head", 968, 16 },
		{ "rstat_flush_next", "struct cgroup *", 1024, 8 },
		{ "last_bstat", "struct cgroup_base_stat", 1032, 24 },
		{ "bstat", "struct cgroup_base_stat", 1056, 24 },
	};
	struct slt_struct *cg = make_struct("cgroup", 2304, cg612, N(cg612));
	struct slt_engine_bound *b = bind_builtin(cg);
	assert_true(b->tree_via_pcpu);
	size_t kp = 0, kl = 0;
	assert_int_equal(role_of(b, "rstat_cpu", &kp)->role, SLT_ROLE_PERCPU_PTR);
	assert_int_equal(role_of(b, "rstat_flush_next", &kl)->role, SLT_ROLE_FLUSH_LINK);
	struct slt_engine_opts o = exact_opts(2, 64, SLT_FLUSH_LIST, 5);
	struct slt_engine_result *r = NULL;
	assert_int_equal(slt_engine_run(b, &o, &r, NULL), 0);
	uint64_t M = o.max_updates, pcpu = 0;
	for (unsigned t = 0; t < 2; t++)
		pcpu += r->access[t * b->n_roles + kp].loads;
	/* per update: the update path's load and the speculative test's */
	assert_true(pcpu >= 2 * 2 * M);
	const struct slt_engine_access *fl = &r->access[2 * b->n_roles];
	/* the flusher: the pop visits every flushed group (>= 1 load each)
	 * and the aggregation loads it once more */
	assert_true(fl[kp].loads >= 2 * r->flushed_groups);
	assert_int_equal(fl[kl].stores, r->flushed_groups);
	assert_true(r->flushed_groups > 0);
	/* the update path's per-CPU holds are a part of all of them */
	const struct slt_engine_hist *u = &r->percpu_update_lock, *all = &r->percpu_lock;
	assert_true(u->holds > 0 && u->holds <= all->holds && u->sum_ns <= all->sum_ns);
	assert_true(u->holds + u->preempted < all->holds + all->preempted);  /* the pops */
	slt_engine_result_free(r);
	slt_engine_bound_free(b);
	free_struct(cg);
}

struct readback {
	const struct slt_engine_bound *b;
	uint64_t *loads, *stores;   /* [cpu * n_roles + role] */
	unsigned n_cpus;
	void *join;
};

static int readback_cb(void *ctx, const struct slt_sample *s)
{
	struct readback *rb = ctx;
	assert_true(s->flags & SLT_SAMPLE_TYPE);
	assert_true(s->flags & SLT_SAMPLE_CPU);
	assert_string_equal(s->type_name, "mem_cgroup_per_node");
	assert_true(s->cpu >= 0 && (unsigned)s->cpu < rb->n_cpus);
	size_t k = SIZE_MAX;
	if (s->flags & SLT_SAMPLE_MEMBER) {
		role_of(rb->b, s->member, &k);
	} else {
		for (size_t i = 0; i < rb->b->n_roles; i++) {
			const struct slt_engine_bound_role *br = &rb->b->roles[i];
			if (s->type_offset >= br->offset && s->type_offset < br->offset + br->size)
				k = i;
		}
	}
	assert_true(k != SIZE_MAX);
	rb->loads[(size_t)s->cpu * rb->b->n_roles + k] += s->loads;
	rb->stores[(size_t)s->cpu * rb->b->n_roles + k] += s->stores;
	return rb->join ? slt_join_add(rb->join, s) : 0;
}

/* The profile reads back with the exact counts, and joins with nothing
 * outside the struct's members. */
static void test_profile_roundtrip(void **state)
{
	(void)state;
	struct slt_struct *s = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_engine_bound *b = bind_builtin(s);
	struct slt_engine_opts o = exact_opts(2, 64, SLT_FLUSH_POP, 11);
	struct slt_engine_result *r = NULL;
	struct slt_error err;
	assert_int_equal(slt_engine_run(b, &o, &r, &err), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(slt_engine_write_profile(r, b, f, "mem", &err), 0);
	fclose(f);
	struct readback rb = { .b = b, .n_cpus = 3 };
	rb.loads = calloc(3 * b->n_roles, sizeof(uint64_t));
	rb.stores = calloc(3 * b->n_roles, sizeof(uint64_t));
	struct slt_join_opts jo = { .cacheline_size = 64 };
	assert_int_equal(slt_join_new(s, &jo, (struct slt_join **)&rb.join, &err), 0);
	struct slt_samples_info info;
	assert_int_equal(slt_profile_parse(buf, len, "mem", readback_cb, &rb, &info, &err), 0);
	assert_int_equal(info.cacheline_size, 64);
	for (size_t i = 0; i < 3 * b->n_roles; i++) {
		assert_int_equal(rb.loads[i], r->access[i].loads);
		assert_int_equal(rb.stores[i], r->access[i].stores);
	}
	struct slt_access_profile *p = NULL;
	assert_int_equal(slt_join_finish(rb.join, &p, &err), 0);
	assert_int_equal(p->outside_samples, 0);
	/* (no classification or collision check here: the engine's own
	 * profile recovering the classes and collisions it was built to
	 * produce proves nothing about a layout; issue 14) */
	slt_access_profile_free(p);
	free(rb.loads);
	free(rb.stores);
	free(buf);
	slt_engine_result_free(r);
	slt_engine_bound_free(b);
	free_struct(s);
}

/* Replay: each hot-write member has exactly one writer, the loads of the
 * read members are split over the threads, and the totals over all
 * threads follow the given rates whatever the thread count: read back
 * from the written profile, exactly as counted, for 1, 2 and 4 threads
 * (before, every thread loaded every read member, so the store share
 * fell as threads were added). */
static void test_replay(void **state)
{
	(void)state;
	struct slt_struct *s = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_engine_replay_member rm[] = {
		{ "memcg", SLT_CLASS_READ_MOSTLY, 400, 0, 0 },
		{ "shrinker_info", SLT_CLASS_READ_MOSTLY, 200, 0, 0 },
		{ "iter", SLT_CLASS_HOT_WRITE, 0, 100, 0 },
		{ "lru_zone_size", SLT_CLASS_MIXED, 0, 100, 0 },
		{ "on_tree", SLT_CLASS_COLD, 5, 5, 0 },
	};
	struct slt_engine_spec *spec = NULL;
	struct slt_engine_bound *b = NULL;
	struct slt_error err;
	assert_int_equal(slt_engine_spec_replay("struct mem_cgroup_per_node", rm, N(rm), &spec, &err), 0);
	assert_int_equal(spec->n_roles, 4);
	assert_int_equal(slt_engine_bind(spec, s, 64, &b, &err), 0);
	size_t memcg, shr, iter, lzs;
	role_of(b, "memcg", &memcg);
	role_of(b, "shrinker_info", &shr);
	role_of(b, "iter", &iter);
	role_of(b, "lru_zone_size", &lzs);
	static const unsigned threads[] = { 1, 2, 4 };
	for (size_t ti = 0; ti < N(threads); ti++) {
		unsigned T = threads[ti];
		struct slt_engine_opts o = exact_opts(T, 64, SLT_FLUSH_LIST, 5);
		/* the global cycle: memcg 64 slots, shrinker_info 32, iter 16,
		 * lru_zone_size 16 = 128; 50 cycles */
		o.max_updates = 128 * 50;
		struct slt_engine_result *r = NULL;
		assert_int_equal(slt_engine_run(b, &o, &r, &err), 0);
		assert_int_equal(r->mode, SLT_ENGINE_REPLAY);
		assert_int_equal(r->n_access_threads, T);
		assert_int_equal(r->n_groups, 0);
		assert_int_equal(r->flushes, 0);
		assert_int_equal(r->ops, 128 * 50);   /* all threads together */
		/* the written profile, read back, summed over threads */
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		assert_non_null(f);
		assert_int_equal(slt_engine_write_profile(r, b, f, "mem", &err), 0);
		fclose(f);
		struct readback rb = { .b = b, .n_cpus = T };
		rb.loads = calloc((size_t)T * b->n_roles, sizeof(uint64_t));
		rb.stores = calloc((size_t)T * b->n_roles, sizeof(uint64_t));
		struct slt_samples_info info;
		assert_int_equal(slt_profile_parse(buf, len, "mem", readback_cb, &rb, &info, &err), 0);
		uint64_t ld[4] = { 0 }, st[4] = { 0 };
		for (unsigned t = 0; t < T; t++)
			for (size_t k = 0; k < 4; k++) {
				ld[k] += rb.loads[t * b->n_roles + k];
				st[k] += rb.stores[t * b->n_roles + k];
			}
		/* per access: memcg 1 line, shrinker_info 1, iter 2, lru_zone_size 4 */
		assert_int_equal(ld[memcg], 64 * 50);
		assert_int_equal(ld[shr], 32 * 50);
		assert_int_equal(st[iter], 16 * 50 * 2);
		assert_int_equal(st[lzs], 16 * 50 * 4);
		assert_int_equal(ld[iter] + ld[lzs] + st[memcg] + st[shr], 0);
		/* the input's relative rates: memcg:shrinker_info:iter:lru_zone_size
		 * = 400:200:100:100 (per access) */
		assert_int_equal(ld[memcg] * 100, 400 * (st[iter] / 2));
		assert_int_equal(ld[shr] * 100, 200 * (st[lzs] / 4));
		/* one writer each: iter by thread 0, lru_zone_size by 1 % T */
		for (unsigned t = 0; t < T; t++) {
			const struct slt_engine_access *a = r->access + (size_t)t * b->n_roles;
			assert_true((a[iter].stores > 0) == (t == 0));
			assert_true((a[lzs].stores > 0) == (t == 1 % T));
			if (T > 1)   /* the loads are split: no thread has them all */
				assert_true(a[memcg].loads < 64 * 50);
		}
		free(rb.loads);
		free(rb.stores);
		free(buf);
		slt_engine_result_free(r);
	}
	slt_engine_bound_free(b);
	slt_engine_spec_free(spec);
	free_struct(s);
}

/* Writer groups: members one CPU stores to share one writer thread
 * (group g on thread (g - 1) % threads), the others go round-robin; the
 * built-in memcg map puts lruvec, lru_zone_size and iter in one group.
 * Counted from the run's exact accesses (rx/tx: round-robin by member
 * order would have put rx_packets and tx_packets both on thread 0). */
static void test_writer_groups(void **state)
{
	(void)state;
	static const struct fake_member net[] = {
		{ "rx_packets", "long unsigned int", 0, 8 },
		{ "rx_bytes", "long unsigned int", 8, 8 },
		{ "tx_packets", "long unsigned int", 16, 8 },
		{ "tx_bytes", "long unsigned int", 24, 8 },
		{ "dev", "void *", 32, 8 },
		{ "misc", "long unsigned int", 40, 8 },
	};
	struct slt_struct *s = make_struct("netstats", 64, net, N(net));
	struct slt_engine_replay_member rm[] = {
		{ "rx_packets", SLT_CLASS_HOT_WRITE, 0, 10, 1 },
		{ "rx_bytes", SLT_CLASS_HOT_WRITE, 0, 10, 1 },
		{ "tx_packets", SLT_CLASS_HOT_WRITE, 0, 10, 2 },
		{ "tx_bytes", SLT_CLASS_HOT_WRITE, 0, 10, 2 },
		{ "dev", SLT_CLASS_READ_MOSTLY, 40, 0, 7 },   /* ignored: not written */
		{ "misc", SLT_CLASS_HOT_WRITE, 0, 10, 0 },    /* no group: round-robin */
	};
	struct slt_engine_spec *spec = NULL;
	struct slt_engine_bound *b = NULL;
	struct slt_error err;
	assert_int_equal(slt_engine_spec_replay("netstats", rm, N(rm), &spec, &err), 0);
	assert_int_equal(slt_engine_bind(spec, s, 64, &b, &err), 0);
	size_t k_rxp, k_rxb, k_txp, k_txb, k_dev, k_misc;
	assert_int_equal(role_of(b, "rx_packets", &k_rxp)->writer, 1);
	assert_int_equal(role_of(b, "tx_bytes", &k_txb)->writer, 2);
	assert_int_equal(role_of(b, "dev", &k_dev)->writer, 0);
	role_of(b, "rx_bytes", &k_rxb);
	role_of(b, "tx_packets", &k_txp);
	role_of(b, "misc", &k_misc);
	static const unsigned threads[] = { 1, 2, 3 };
	for (size_t ti = 0; ti < N(threads); ti++) {
		unsigned T = threads[ti];
		struct slt_engine_opts o = exact_opts(T, 64, SLT_FLUSH_LIST, 3);
		o.max_updates = 1000;
		struct slt_engine_result *r = NULL;
		assert_int_equal(slt_engine_run(b, &o, &r, &err), 0);
		for (unsigned t = 0; t < T; t++) {
			const struct slt_engine_access *a = r->access + (size_t)t * b->n_roles;
			/* group 1 on thread 0, group 2 on thread 1 % T, misc
			 * (the first role without a group) on thread 0 */
			assert_true((a[k_rxp].stores > 0) == (t == 0));
			assert_true((a[k_rxb].stores > 0) == (t == 0));
			assert_true((a[k_txp].stores > 0) == (t == 1 % T));
			assert_true((a[k_txb].stores > 0) == (t == 1 % T));
			assert_true((a[k_misc].stores > 0) == (t == 0));
			assert_int_equal(a[k_dev].stores, 0);
		}
		slt_engine_result_free(r);
	}
	slt_engine_bound_free(b);
	slt_engine_spec_free(spec);
	free_struct(s);

	/* the built-in memcg map: one writer for the three hot members, so
	 * 6.12's line 29 (lru_zone_size and iter) is not made write-write */
	s = make_struct("mem_cgroup_per_node", 1920, memcg612, N(memcg612));
	b = bind_builtin(s);
	size_t k_lru, k_lzs, k_iter;
	assert_int_equal(role_of(b, "lruvec", &k_lru)->writer, 1);
	assert_int_equal(role_of(b, "lru_zone_size", &k_lzs)->writer, 1);
	assert_int_equal(role_of(b, "iter", &k_iter)->writer, 1);
	struct slt_engine_opts o = exact_opts(2, 64, SLT_FLUSH_LIST, 3);
	o.max_updates = 400;
	struct slt_engine_result *r = NULL;
	assert_int_equal(slt_engine_run(b, &o, &r, &err), 0);
	for (unsigned t = 0; t < 3; t++) {   /* 2 updaters and the flusher */
		const struct slt_engine_access *a = r->access + (size_t)t * b->n_roles;
		assert_int_equal(a[k_lru].stores > 0, t == 0);
		assert_int_equal(a[k_lzs].stores > 0, t == 0);
		assert_int_equal(a[k_iter].stores > 0, t == 0);
	}
	slt_engine_result_free(r);
	slt_engine_bound_free(b);
	free_struct(s);
}

/* Latency sampling is a fair sample: the timed updates include batch
 * crossings (the update that may wake the flusher, by far the slowest)
 * at about their share of all updates, 1 / batch, for every batch (the
 * old 1-in-64 timing timed only batch crossings at batch 32 and 64).
 * Counted, not timed. */
static void test_latency_sampling(void **state)
{
	(void)state;
	struct slt_struct *s = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_engine_bound *b = bind_builtin(s);
	static const unsigned batches[] = { 32, 64, 128 };
	for (size_t bi = 0; bi < N(batches); bi++) {
		struct slt_engine_opts o = exact_opts(2, batches[bi], SLT_FLUSH_LIST, 21);
		o.max_updates = 200000;
		o.latency_every = 64;
		struct slt_engine_result *r = NULL;
		assert_int_equal(slt_engine_run(b, &o, &r, NULL), 0);
		double want = 2.0 * 200000 / 64;      /* timed updates expected */
		double crossings = (double)r->lat_samples / batches[bi];
		print_message("batch %u: %llu timed, %llu of them batch crossings (%.1f expected)\n",
			      batches[bi], (unsigned long long)r->lat_samples,
			      (unsigned long long)r->lat_batch_samples, crossings);
		assert_true(r->lat_samples > want * 0.9 && r->lat_samples < want * 1.1);
		assert_true((double)r->lat_batch_samples > crossings * 0.5);
		assert_true((double)r->lat_batch_samples < crossings * 1.6);
		/* every batch-th update of a thread crosses; wake-ups coalesce */
		assert_int_equal(r->batch_crossings, 2 * (200000 / batches[bi]));
		assert_true(r->flush_wakeups <= r->batch_crossings);
		assert_true(r->flushes <= r->flush_wakeups + 1);
		slt_engine_result_free(r);
	}
	slt_engine_bound_free(b);
	free_struct(s);
}

/* The role maps of 6.1 and 6.12 differ (a different workload); a layout
 * against itself does not. */
static void test_bound_diff(void **state)
{
	(void)state;
	struct slt_struct *s61 = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_struct *s612 = make_struct("mem_cgroup_per_node", 1920, memcg612, N(memcg612));
	struct slt_engine_bound *a = bind_builtin(s61), *b = bind_builtin(s612);
	char buf[1024];
	assert_int_equal(slt_engine_bound_diff(a, a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	size_t n = slt_engine_bound_diff(a, b, buf, sizeof(buf));
	print_message("%s\n", buf);
	assert_int_equal(n, 2);   /* lruvec_stats's role and size, lruvec's size */
	assert_non_null(strstr(buf, "lruvec_stats: flush-write, 688 bytes in A, read, 8 bytes in B"));
	assert_non_null(strstr(buf, "lruvec: hot-write, 1592 bytes in A, hot-write, 1560 bytes in B"));
	char small[24];
	assert_int_equal(slt_engine_bound_diff(a, b, small, sizeof(small)), 2);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_string_equal(small + sizeof(small) - 4, "...");
	slt_engine_bound_free(a);
	slt_engine_bound_free(b);
	free_struct(s61);
	free_struct(s612);
}

static void test_bad_opts(void **state)
{
	(void)state;
	struct slt_struct *s = make_struct("mem_cgroup_per_node", 2560, memcg61, N(memcg61));
	struct slt_engine_bound *b = bind_builtin(s);
	struct slt_engine_result *r = NULL;
	struct slt_error err;
	struct slt_engine_opts o = exact_opts(2, 64, SLT_FLUSH_LIST, 1);
	o.seconds = 0;
	slt_error_clear(&err);
	assert_int_equal(slt_engine_run(b, &o, &r, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "seconds"));
	assert_null(r);
	o = exact_opts(2, 48, SLT_FLUSH_LIST, 1);
	slt_error_clear(&err);
	assert_int_equal(slt_engine_run(b, &o, &r, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "batch"));
	o = exact_opts(2000, 64, SLT_FLUSH_LIST, 1);
	assert_int_equal(slt_engine_run(b, &o, &r, &err), SLT_EUSAGE);
	o = exact_opts(2, 64, (enum slt_engine_flush)7, 1);   /* 0 is the mode's */
	assert_int_equal(slt_engine_run(b, &o, &r, &err), SLT_EUSAGE);
	o = exact_opts(2, 64, SLT_FLUSH_LIST, 1);
	o.depth = 8;
	o.fanout = 16;
	slt_error_clear(&err);
	assert_int_equal(slt_engine_run(b, &o, &r, &err), SLT_EUSAGE);
	assert_non_null(strstr(err.message, "4096"));
	o = exact_opts(2, 64, SLT_FLUSH_LIST, 1);
	o.cacheline_size = 128;   /* bound with 64 */
	assert_int_equal(slt_engine_run(b, &o, &r, &err), SLT_EUSAGE);
	assert_int_equal(slt_engine_flush_parse("pop"), SLT_FLUSH_POP);
	assert_int_equal(slt_engine_flush_parse("list"), SLT_FLUSH_LIST);
	assert_int_equal(slt_engine_flush_parse("other"), 0);
	slt_engine_bound_free(b);
	free_struct(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bind_builtin),
		cmocka_unit_test(test_bind_errors),
		cmocka_unit_test(test_hist_buckets),
		cmocka_unit_test(test_exact_totals),
		cmocka_unit_test(test_access_counts),
		cmocka_unit_test(test_cgroup_tree_walk),
		cmocka_unit_test(test_profile_roundtrip),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_writer_groups),
		cmocka_unit_test(test_latency_sampling),
		cmocka_unit_test(test_bound_diff),
		cmocka_unit_test(test_bad_opts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
