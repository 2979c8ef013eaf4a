/* SPDX-License-Identifier: MIT */
/* perf mem report / perf report --mem-mode tables (src/samples/perfmem.c),
 * on the real perf 6.1 outputs of fixtures/samples/c2c and hand-made edge
 * cases. */
#include "samples_helpers.h"
#include "graph_helpers.h"
#include "structlint/join.h"

struct dsym_rec {
	char name[64];
	uint64_t off;
};
static struct dsym_rec dsyms[64];

static int collect_dsym(void *ctx, const struct slt_sample *s)
{
	struct coll *c = ctx;
	if (c->n < 64) {
		snprintf(dsyms[c->n].name, sizeof(dsyms[c->n].name), "%s",
			 s->data_symbol ? s->data_symbol : "");
		dsyms[c->n].off = s->data_symbol_offset;
	}
	return collect(ctx, s);
}

static int read_pm(const char *path, struct coll *c, struct slt_samples_info *in,
		   struct slt_error *e)
{
	memset(c, 0, sizeof(*c));
	memset(dsyms, 0, sizeof(dsyms));
	slt_error_clear(e);
	return slt_samples_read(path, SLT_SAMPLES_AUTO, collect_dsym, c, in, e);
}

static int read_pm_str(const char *t, struct coll *c, struct slt_samples_info *in,
		       struct slt_error *e)
{
	memset(c, 0, sizeof(*c));
	memset(dsyms, 0, sizeof(dsyms));
	slt_error_clear(e);
	return slt_samples_read_mem(t, strlen(t), "t", SLT_SAMPLES_AUTO, collect_dsym, c,
				    in, e);
}

/* perf mem report --stdio (default sort keys) of the local recording */
static void test_perf_mem_report(void **state)
{
	(void)state;
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_pm(FX "perf6.1-local/perf_mem_report.txt", &c, &in, &e), 0);
	assert_int_equal(in.format, SLT_SAMPLES_PERF_MEM);
	assert_int_equal(c.n, 7);
	assert_int_equal(in.records, 7);
	assert_int_equal(in.samples, 800);   /* "# Samples: 400" twice */
	assert_int_equal(in.skipped, 0);
	/* row 1: 56.00% 160 420 L3 hit [.] reader fs [.] g_hot+0x18 fs HitM */
	struct slt_sample *s = &c.r[0].s;
	assert_true(s->flags & SLT_SAMPLE_DSYM);
	assert_false(s->flags & (SLT_SAMPLE_ADDR | SLT_SAMPLE_TYPE | SLT_SAMPLE_LINE));
	assert_string_equal(dsyms[0].name, "g_hot");
	assert_int_equal(dsyms[0].off, 0x18);
	assert_int_equal(s->loads, 160);    /* the Samples column, not 56% */
	assert_int_equal(s->stores, 0);
	assert_int_equal(s->hitm_local, 160);
	assert_int_equal(s->hitm_remote, 0);
	assert_int_equal(s->cycles, 160 * 420);
	assert_string_equal(c.r[0].sym, "reader");
	assert_string_equal(c.r[0].obj, "fs");
	assert_string_equal(c.r[0].ev, "cpu/mem-loads,ldlat=30/P");
	/* Remote Cache (1 hop) hit + HitM: remote */
	assert_int_equal(dsyms[2].off, 0x18);
	assert_int_equal(c.r[2].s.hitm_remote, 40);
	assert_int_equal(c.r[2].s.hitm_local, 0);
	/* L1 hit, Snoop None: a plain load */
	assert_int_equal(c.r[3].s.loads, 67);
	assert_int_equal(c.r[3].s.hitm_local + c.r[3].s.hitm_remote, 0);
	/* the local weights sum to the block's "Total weight : 120000" */
	uint64_t w = 0;
	for (size_t i = 0; i < 4; i++)
		w += c.r[i].s.cycles;
	assert_int_equal(w, 120000);
	/* stores block: g_hot+0x8 200, g_hot+0x0 150 + 50 */
	assert_int_equal(c.r[4].s.stores, 200);
	assert_int_equal(c.r[4].s.loads, 0);
	assert_int_equal(dsyms[4].off, 8);
	assert_int_equal(dsyms[5].off, 0);
	assert_int_equal(c.r[5].s.stores + c.r[6].s.stores, 200);
	assert_string_equal(c.r[6].ev, "cpu/mem-stores/P");
	assert_int_equal(c.r[6].s.cycles, 0);
}

/* perf report --mem-mode: no Samples column, counts from Overhead x 400 */
static void test_mem_mode(void **state)
{
	(void)state;
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_pm(FX "perf6.1-local/report_mem_mode.txt", &c, &in, &e), 0);
	assert_int_equal(in.format, SLT_SAMPLES_PERF_MEM);
	assert_int_equal(c.n, 7);
	assert_int_equal(c.r[0].s.loads, 224);      /* 56.00% of 400 */
	assert_int_equal(c.r[1].s.loads, 80);       /* 19.95% of 400 = 79.8 */
	assert_int_equal(c.r[2].s.hitm_remote, 56); /* 14.00%, Remote Cache */
	assert_int_equal(c.r[4].s.stores, 200);     /* 50.00% */
	assert_int_equal(c.r[5].s.stores, 150);
	assert_string_equal(dsyms[1].name, "g_hot");
	assert_int_equal(dsyms[1].off, 0x10);
	/* the Data Cacheline column ("[.] g_hot+0xffffffffffbff000") is not
	 * taken for the data symbol */
	assert_int_equal(dsyms[0].off, 0x18);
	assert_string_equal(c.r[0].sym, "reader");
	assert_non_null(strstr(in.detail, "7 counts estimated"));
}

/* perf mem report -s mem on AMD IBS: memory levels only */
static void test_levels_only(void **state)
{
	(void)state;
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_pm(FX "published/perf-mem-amd-ibs-zen5.txt", &c, &in, &e),
			 SLT_EUSAGE);
	assert_int_equal(in.format, SLT_SAMPLES_PERF_MEM);
	assert_int_equal(c.n, 0);
	assert_int_equal(in.skipped, 6);            /* the six level rows */
	assert_non_null(strstr(e.message, "without a Data Symbol column (sort keys: mem)"));
	assert_non_null(strstr(e.message, "no per-address data"));
	assert_non_null(strstr(e.hint, "perf mem report --stdio"));
	assert_non_null(strstr(e.hint, "symbol_daddr"));
	assert_int_equal(e.line, 15);               /* the table's header line */
}

/* perf report --header-only of a perf mem recording: event names only */
static void test_header_only(void **state)
{
	(void)state;
	struct coll c; struct slt_samples_info in; struct slt_error e;
	assert_int_equal(read_pm(FX "published/perf-mem-intel-hybrid-header-events.txt",
				 &c, &in, &e), SLT_EUSAGE);
	assert_int_equal(in.format, SLT_SAMPLES_PERF_MEM);
	assert_int_equal(c.n, 0);
	/* five mem events (cpu_atom/cpu_core loads, aux, stores), not dummy:u */
	assert_non_null(strstr(e.message, "names 5 perf mem event(s) (cpu_atom/mem-loads,ldlat=30/P)"));
	assert_non_null(strstr(e.message, "holds no samples"));
	assert_non_null(strstr(e.hint, "perf mem report --stdio"));
}

/* Hand-made: columns in another order, an unresolved data address, a
 * remote peer, a row that does not line up, a row without data symbol,
 * Samples abbreviated in the header ("2K"), no Samples column. */
static void test_edge_rows(void **state)
{
	(void)state;
	struct coll c; struct slt_samples_info in; struct slt_error e;
	const char *t =
		"# Samples: 2K of event 'cpu/mem-loads/P'\n"
		"#\n"
		"# Overhead  Snoop  Memory access         Data Symbol            CPU\n"
		"# ........  .....  ....................  .....................  ...\n"
		"#\n"
		"    50.00%  Peer   Remote RAM (1 hop)    [.] 0x00007ffd0010       3\n"
		"    25.00%  HitM   L3 hit                [k] obj+0x4              1\n"
		"    12.00%  HitM   L3 hitXXXXXXXXXXXXXXXXXXX[.] obj+0x8           1\n"
		"    13.00%  None   L1 hit                N/A                      0\n"
		"\n"
		"# (Tip: perf mem)\n";
	assert_int_equal(read_pm_str(t, &c, &in, &e), 0);
	assert_int_equal(in.format, SLT_SAMPLES_PERF_MEM);
	assert_int_equal(c.n, 2);
	assert_int_equal(in.skipped, 2);   /* misaligned row, N/A data symbol */
	assert_true(c.r[0].s.flags & SLT_SAMPLE_ADDR);
	assert_false(c.r[0].s.flags & SLT_SAMPLE_DSYM);
	assert_int_equal(c.r[0].s.addr, 0x7ffd0010);
	assert_int_equal(c.r[0].s.loads, 1250);       /* 50% of 2500 */
	assert_int_equal(c.r[0].s.peer_remote, 1250);
	assert_int_equal(c.r[0].s.cpu, 3);
	assert_string_equal(dsyms[1].name, "obj");
	assert_int_equal(dsyms[1].off, 4);
	assert_int_equal(c.r[1].s.hitm_local, 625);
	assert_int_equal(c.r[1].s.cpu, 1);

	/* percentages, no Samples column, no "# Samples:" header: the error
	 * says why nothing could be counted */
	const char *nt =
		"# Overhead  Data Symbol\n"
		"# ........  ...........\n"
		"    50.00%  [.] a+0x8  \n";
	assert_int_equal(read_pm_str(nt, &c, &in, &e), SLT_EUSAGE);
	assert_non_null(strstr(e.message, "without a sample count"));
	assert_int_equal(c.n, 0);

	/* the callback's stop value comes back */
	memset(&c, 0, sizeof(c));
	c.stop_after = 1;
	assert_int_equal(slt_samples_read_mem(t, strlen(t), "t", SLT_SAMPLES_PERF_MEM,
					      collect, &c, &in, &e), 7);
}

/* Truncated and garbled input never fails other than cleanly. */
static void test_truncated(void **state)
{
	(void)state;
	FILE *f = fopen(FX "perf6.1-local/perf_mem_report.txt", "rb");
	assert_non_null(f);
	static char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n > 1000 && n < sizeof(buf));
	struct coll c; struct slt_samples_info in; struct slt_error e;
	unsigned ok = 0;
	for (size_t cut = 0; cut <= n; cut += 7) {
		memset(&c, 0, sizeof(c));
		slt_error_clear(&e);
		int rc = slt_samples_read_mem(buf, cut, "cut", SLT_SAMPLES_PERF_MEM, collect,
					      &c, &in, &e);
		assert_true(rc == 0 || rc == SLT_EUSAGE);
		if (rc == 0) {
			ok++;
			assert_true(c.n >= 1 && c.n <= 7);
		} else {
			assert_true(e.message[0] != '\0');
		}
	}
	assert_true(ok > 0);
}

/* The join's data-symbol hook (src/join/join.c): struct two { long a, b; } */
static struct slt_struct *two(struct slt_arena *a)
{
	struct slt_type *l = G_INT(a, "long int", 8);
	struct slt_type *t = g_comp(a, SLT_T_STRUCT, "two", 16, 2);
	g_mem(t, "a", l, 0, 0, 0);
	g_mem(t, "b", l, 64, 0, 0);
	struct slt_struct *s = slt_arena_alloc(a, sizeof(*s));
	struct slt_error err;
	assert_int_equal(slt_build_struct(a, t, SLT_FORMAT_DWARF, true, "two.o", s, &err), 0);
	return s;
}

static int join_dsyms(const struct slt_struct *s, const struct slt_join_opts *o,
		      const char *const *syms, const uint64_t *offs, size_t n,
		      struct slt_access_profile **p, struct slt_error *e)
{
	struct slt_join *j;
	assert_int_equal(slt_join_new(s, o, &j, e), 0);
	for (size_t i = 0; i < n; i++) {
		struct slt_sample x = { .flags = SLT_SAMPLE_DSYM, .cpu = -1, .pid = -1,
					.tid = -1, .node = -1, .data_symbol = syms[i],
					.data_symbol_offset = offs[i], .stores = 10 };
		assert_int_equal(slt_join_add(j, &x), 0);
	}
	slt_error_clear(e);
	return slt_join_finish(j, p, e);
}

static void test_join_dsym(void **state)
{
	(void)state;
	struct slt_arena *a = slt_arena_new();
	struct slt_struct *s = two(a);
	struct slt_access_profile *p;
	struct slt_error e;
	const char *one[] = { "obj", "obj", "obj" };
	const char *mixed[] = { "obj", "other", "obj" };
	const uint64_t offs[] = { 0, 8, 12 };
	struct slt_join_opts o = { 0 };
	/* one symbol named: taken, typed by the offsets */
	assert_int_equal(join_dsyms(s, &o, one, offs, 3, &p, &e), 0);
	assert_int_equal(p->base_method, SLT_BASE_TYPED);
	assert_non_null(strstr(p->base_note, "obj"));
	assert_int_equal(p->members[0].stores, 10);
	assert_int_equal(p->members[1].stores, 20);   /* 8 and 12 are in b */
	assert_int_equal(p->matched, 30);
	slt_access_profile_free(p);
	/* several symbols and no base symbol: refused, asking for --base */
	assert_int_equal(join_dsyms(s, &o, mixed, offs, 3, &p, &e), SLT_EUSAGE);
	assert_non_null(strstr(e.message, "obj, other"));
	assert_non_null(strstr(e.hint, "--base SYMBOL"));
	/* the base symbol picks its samples; the others are another object's */
	char sym[] = "obj";
	o.base_symbol = sym;
	assert_int_equal(join_dsyms(s, &o, mixed, offs, 3, &p, &e), 0);
	assert_int_equal(p->base_method, SLT_BASE_TYPED);
	assert_int_equal(p->matched, 20);
	assert_int_equal(p->samples, 30);
	assert_int_equal(p->skipped_other_type, 10);
	assert_int_equal(p->members[0].stores, 10);
	assert_int_equal(p->members[1].stores, 10);
	assert_non_null(strstr(p->base_note, "10 samples on other data symbols"));
	slt_access_profile_free(p);
	/* with its address known (--base SYMBOL resolved): explicit, and the
	 * lines start where the symbol does */
	o.base_symbol = "obj";
	o.has_base = true;
	o.base = 0x1038;
	assert_int_equal(join_dsyms(s, &o, one, offs, 3, &p, &e), 0);
	assert_int_equal(p->base_method, SLT_BASE_EXPLICIT);
	assert_int_equal(p->base, 0x1038);
	assert_int_equal(p->line_origin, 0x38);
	assert_int_equal(p->n_cells, 2);  /* a on line 0, b on line 1 (0x1040) */
	slt_access_profile_free(p);
	slt_arena_free(a);
}

int main(void)
{
	(void)read_fx;  /* samples_helpers.h: not used here */
	(void)read_str;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_mem_report), cmocka_unit_test(test_mem_mode),
		cmocka_unit_test(test_levels_only), cmocka_unit_test(test_header_only),
		cmocka_unit_test(test_edge_rows), cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_join_dsym),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
