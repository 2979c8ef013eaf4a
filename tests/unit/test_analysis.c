/* SPDX-License-Identifier: MIT */
/* Classification and findings on synthetic profiles whose answers are
 * worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>

#include "graph_helpers.h"
#include "analysis_helpers.h"
#include "an_helpers.h"
#include "structlint/analysis.h"
#include "structlint/join.h"

/*
 * Per-CPU samples.
 * Line 0: w stored 100x by CPU 0; r loaded 50x by CPU 1, 30x by CPU 2.
 *   S = min(100, 50) + min(100, 30) = 80 (c = 0; CPUs 1, 2 store nothing),
 *   same-member part 0  ->  collision, score 80.
 * Line 1: x stored 40 and loaded 40 by CPU 3; y stored 20 by CPU 4.
 *   S = min(40, 20) + min(20, 80) = 40, same-member part 0
 *   -> write-write false sharing, score 40.
 * Line 2: ref stored 10 and loaded 10 by each of CPUs 0, 1, 2.
 *   S = 3 x 2 x min(10, 20) = 60, same-member part 60 -> F = 0: no line
 *   finding; ref is written by 3 CPUs -> true-shared, score 60, not
 *   fixable by layout.
 * Total 340 samples; min_share 1% -> 3.4, all above.
 */
static void test_per_cpu(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[] = {
		ts(0, 0, 0, 100), ts(8, 1, 50, 0), ts(8, 2, 30, 0),
		ts(64, 3, 40, 40), ts(72, 4, 0, 20),
		ts(128, 0, 10, 10), ts(128, 1, 10, 10), ts(128, 2, 10, 10),
	};
	struct slt_access_profile *p = join(s, v, 8);
	struct slt_analysis *a;
	struct slt_error err;
	struct slt_analysis_opts o = { 0 };
	slt_classify_opts_default(&o.classify);
	assert_int_equal(slt_analyze(s, p, &o, &a, &err), 0);
	assert_int_equal(a->basis, SLT_BASIS_CPU);
	assert_int_equal(a->classes[idx(s, "w")].cls, SLT_CLASS_HOT_WRITE);
	assert_int_equal(a->classes[idx(s, "r")].cls, SLT_CLASS_READ_MOSTLY);
	assert_int_equal(a->classes[idx(s, "x")].cls, SLT_CLASS_HOT_WRITE);
	assert_int_equal(a->classes[idx(s, "ref")].cls, SLT_CLASS_TRUE_SHARED);
	assert_int_equal(a->classes[idx(s, "ref")].writers, 3);
	assert_int_equal(a->classes[idx(s, "pk")].cls, SLT_CLASS_COLD);
	assert_int_equal(a->n_findings, 3);
	/* ranked by score */
	assert_int_equal(a->findings[0].kind, SLT_FIND_COLLISION);
	assert_int_equal(a->findings[0].line, 0);
	assert_true(a->findings[0].score == 80);
	assert_int_equal(a->findings[0].n_writers, 1);
	assert_int_equal(a->findings[0].members[0], idx(s, "w"));
	assert_int_equal(a->findings[0].members[1], idx(s, "r"));
	assert_true(a->findings[0].layout_fixable);
	assert_int_equal(a->findings[1].kind, SLT_FIND_TRUE_SHARING);
	assert_true(a->findings[1].score == 60);
	assert_false(a->findings[1].layout_fixable);
	assert_null(strstr(a->findings[1].advice, "PADDING"));
	assert_non_null(strstr(a->findings[1].advice, "per-CPU"));
	assert_int_equal(a->findings[2].kind, SLT_FIND_WRITE_WRITE);
	assert_int_equal(a->findings[2].line, 1);
	assert_true(a->findings[2].score == 40);
	assert_null(find(a, SLT_FIND_COLLISION, 2));
	slt_analysis_free(a);

	/* Raising --min-share above 80/340 drops all line findings and
	 * makes every member cold. */
	o.classify.min_share = 0.5;
	assert_int_equal(slt_analyze(s, p, &o, &a, &err), 0);
	assert_int_equal(a->n_findings, 0);
	slt_analysis_free(a);
	/* --true-share-cpus 4: ref (3 writers) becomes hot-write again. */
	slt_classify_opts_default(&o.classify);
	o.classify.true_share_cpus = 4;
	assert_int_equal(slt_analyze(s, p, &o, &a, &err), 0);
	assert_int_equal(a->classes[idx(s, "ref")].cls, SLT_CLASS_HOT_WRITE);
	assert_null(find(a, SLT_FIND_TRUE_SHARING, 2));
	slt_analysis_free(a);
	/* thresholds out of range */
	o.classify.read_mostly_ratio = 0.9;
	assert_int_equal(slt_analyze(s, p, &o, &a, &err), SLT_EUSAGE);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* One CPU writing and reading everything: no cross-CPU pairs, nothing. */
static void test_single_cpu_nothing(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[] = { ts(0, 5, 0, 100), ts(8, 5, 70, 0), ts(64, 5, 10, 10) };
	struct slt_access_profile *p = join(s, v, 3);
	struct slt_analysis *a;
	struct slt_error err;
	assert_int_equal(slt_analyze(s, p, NULL, &a, &err), 0);
	assert_int_equal(a->n_findings, 0);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Counts without CPUs: F(L) = min(stores of written, loads of
 * read-mostly); here min(100, 40) = 40 on line 0.  Line 1 has two written
 * members and no read-mostly one: not a finding on this basis. */
static void test_counts(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[] = { ts(0, -1, 0, 100), ts(8, -1, 40, 0),
				  ts(64, -1, 0, 30), ts(72, -1, 0, 30) };
	struct slt_access_profile *p = join(s, v, 4);
	struct slt_analysis *a;
	struct slt_error err;
	assert_int_equal(slt_analyze(s, p, NULL, &a, &err), 0);
	assert_int_equal(a->basis, SLT_BASIS_COUNTS);
	assert_int_equal(a->n_findings, 1);
	assert_int_equal(a->findings[0].kind, SLT_FIND_COLLISION);
	assert_int_equal(a->findings[0].line, 0);
	assert_true(a->findings[0].score == 40);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Classes only: pairs of (read-mostly, hot-write) per line. */
static void test_classes(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	enum slt_class g[16] = { 0 };
	g[idx(s, "w")] = SLT_CLASS_HOT_WRITE;
	g[idx(s, "r")] = SLT_CLASS_READ_MOSTLY;
	g[idx(s, "x")] = SLT_CLASS_HOT_WRITE;    /* x, y: two writers, line 1 */
	g[idx(s, "y")] = SLT_CLASS_HOT_WRITE;
	g[idx(s, "ref")] = SLT_CLASS_TRUE_SHARED;
	g[idx(s, "pk")] = SLT_CLASS_READ_MOSTLY; /* a scalar across 2|3 */
	struct slt_analysis_opts o = { .given = g };
	slt_classify_opts_default(&o.classify);
	struct slt_analysis *a;
	struct slt_error err;
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	assert_int_equal(a->basis, SLT_BASIS_CLASSES);
	assert_true(a->classes[idx(s, "w")].given);
	const struct slt_finding *f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score == 1);
	assert_null(find(a, SLT_FIND_COLLISION, 1));
	assert_null(find(a, SLT_FIND_WRITE_WRITE, 1));
	/* ref is true-shared on line 2 with read-mostly pk: a true-sharing
	 * finding (no padding), and a collision for pk's readers. */
	assert_non_null(find(a, SLT_FIND_COLLISION, 2));
	f = find(a, SLT_FIND_TRUE_SHARING, 2);
	assert_non_null(f);
	assert_false(f->layout_fixable);
	f = find(a, SLT_FIND_STRADDLE, 2);
	assert_non_null(f);
	assert_int_equal(f->line2, 3);
	assert_int_equal(a->n_findings, 4);
	slt_analysis_free(a);

	/* --adjacent: lines 0 and 1 form a 128-byte pair: r (read-mostly, 0)
	 * with x and y (hot-write, 1): 2 pairs; w (0) with nothing read-mostly
	 * on 1.  Lines 2 and 3: ref (written, 2) with pk (read-mostly, also
	 * on 3): 1 pair. */
	o.adjacent = true;
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	f = find(a, SLT_FIND_ADJACENT, 0);
	assert_non_null(f);
	assert_true(f->score == 2);
	assert_int_equal(f->line2, 1);
	f = find(a, SLT_FIND_ADJACENT, 2);
	assert_non_null(f);
	assert_true(f->score == 1);
	slt_analysis_free(a);

	/* Nothing to analyse. */
	assert_int_equal(slt_analyze(s, NULL, NULL, &a, &err), SLT_EUSAGE);
	slt_arena_free(ar);
}

/*
 * A member spanning many lines, struct big { long head; char body[256]; }
 * (body at 64: lines 1..4), true-shared: stored by CPUs 0 and 1.  Each
 * line the CPUs met on gets its own finding, scored on that line's cell:
 *   line 1 (body + 10): CPUs 0, 1 store 10 each: min(10,10) x 2 = 20;
 *   line 3 (body + 130): CPUs 0, 1 store 5 each: 10;
 *   line 4 (body + 200): CPU 2 loads 40 alone: nothing.
 * Before, one finding on body's first line (1) carried all of it.
 */
static void test_true_sharing_per_line(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_type *l = G_INT(ar, "long int", 8), *ch = G_INT(ar, "char", 1);
	struct slt_type *t = g_comp(ar, SLT_T_STRUCT, "an", 320, 2);
	g_mem(t, "head", l, 0, 0, 0);
	g_mem(t, "body", g_array(ar, ch, 256, 1), 512, 0, 0);
	struct slt_struct *s = slt_arena_alloc(ar, sizeof(*s));
	struct slt_error err;
	assert_int_equal(slt_build_struct(ar, t, SLT_FORMAT_DWARF, false, "big.o", s, &err), 0);
	struct slt_sample v[] = {
		ts(74, 0, 0, 10), ts(74, 1, 0, 10), ts(194, 0, 0, 5), ts(194, 1, 0, 5),
		ts(264, 2, 40, 0),
	};
	struct slt_access_profile *p = join(s, v, 5);
	struct slt_analysis *a;
	struct slt_analysis_opts o = { 0 };
	slt_classify_opts_default(&o.classify);
	assert_int_equal(slt_analyze(s, p, &o, &a, &err), 0);
	assert_int_equal(a->classes[idx(s, "body")].cls, SLT_CLASS_TRUE_SHARED);
	assert_int_equal(a->n_findings, 2);
	const struct slt_finding *f = find(a, SLT_FIND_TRUE_SHARING, 1);
	assert_non_null(f);
	assert_true(f->score == 20);
	f = find(a, SLT_FIND_TRUE_SHARING, 3);
	assert_non_null(f);
	assert_true(f->score == 10);
	assert_int_equal(f->members[0], idx(s, "body"));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Classes entries naming members the struct lacks: reported once each, in
 * file order, with the closest member path; known members, other structs
 * and members of other structs are not. */
struct unk { unsigned line[4]; char sugg[4][32]; size_t n; };

static void on_unknown(void *ctx, const struct slt_class_entry *e, const char *s)
{
	struct unk *u = ctx;
	assert_true(u->n < 4);
	u->line[u->n] = e->line;
	snprintf(u->sugg[u->n++], 32, "%s", s ? s : "-");
}

static void test_classes_check(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	static const char text[] =
		"an.w hot-write\n"          /* 1: known */
		"an.rfe read-mostly\n"      /* 2: unknown, like ref */
		"other.nope cold\n"         /* 3: another struct */
		"[struct an]\n"
		"pk[3] cold\n"              /* 5: known (index ignored) */
		"zzzzqqqq cold\n";          /* 6: unknown, nothing close */
	struct slt_classes *c;
	struct slt_error err;
	assert_int_equal(slt_classes_read_mem(text, sizeof(text) - 1, "t.classes",
					      SLT_CLASSES_FILE, NULL, &c, &err), 0);
	struct unk u = { 0 };
	assert_int_equal(slt_classes_check(c, s, on_unknown, &u), 2);
	assert_int_equal(u.n, 2);
	assert_int_equal(u.line[0], 2);
	assert_string_equal(u.sugg[0], "ref");
	assert_int_equal(u.line[1], 6);
	assert_string_equal(u.sugg[1], "-");
	slt_classes_free(c);
	slt_arena_free(ar);
}

/* The annotated text keeps pahole's lines and the JSON has the schema. */
static void test_reports(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[] = { ts(0, 0, 0, 100), ts(8, 1, 50, 0), ts(8, 2, 30, 0) };
	v[0].symbol = "bump_w";
	v[0].source = "an.c:12";
	struct slt_access_profile *p = join(s, v, 3);
	struct slt_analysis *a;
	struct slt_error err;
	assert_int_equal(slt_analyze(s, p, NULL, &a, &err), 0);
	char *buf = NULL, *plain = NULL;
	size_t len = 0, plen = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(slt_report_analysis_text(f, a, NULL, &err), 0);
	fclose(f);
	struct slt_layout one = { .structs = s, .n_structs = 1 };
	struct slt_report_opts ro = { .cacheline_size = 64 };
	f = open_memstream(&plain, &plen);
	assert_int_equal(slt_report_layout_text(f, &one, &ro, &err), 0);
	fclose(f);
	/* Cutting every line at its TAB gives the layout text back. */
	char *cut = calloc(1, len + 1), *o = cut;
	for (const char *c = buf; *c;) {
		const char *nl = strchr(c, '\n');
		size_t n = nl ? (size_t)(nl - c) : strlen(c);
		const char *tab = memchr(c, '\t', n);
		/* member lines start with a TAB; the annotation is the last one */
		const char *last = NULL;
		for (const char *t = c; t < c + n; t++)
			if (*t == '\t' && t + 1 < c + n && !strncmp(t + 1, "/* ", 3) &&
			    strstr(t, " ld=") && t > c + 1)
				last = t;
		(void)tab;
		size_t keep = last ? (size_t)(last - c) : n;
		memcpy(o, c, keep);
		o += keep;
		*o++ = '\n';
		c += n + (nl != NULL);
	}
	assert_true(strncmp(cut, plain, plen) == 0);
	assert_non_null(strstr(buf, "/* hot-write ld=0 st=100 hitm=0 ncpus=1 ##### */"));
	assert_non_null(strstr(buf, "/* read-mostly ld=80 st=0 hitm=0 ncpus=2 #### */"));
	assert_non_null(strstr(buf, "finding 1: collision, line 0 (bytes 0..63), score 80"));
	assert_non_null(strstr(buf, "at bump_w an.c:12 (ld=0 st=100 hitm=0)"));
	free(buf);
	free(plain);
	free(cut);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(slt_report_analysis_json(f, a, NULL, &err), 0);
	fclose(f);
	json_error_t je;
	json_t *j = json_loads(buf, 0, &je);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "schema")), "structlint.report/v1");
	json_t *fs = json_object_get(j, "findings");
	assert_int_equal(json_array_size(fs), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(fs, 0), "kind")), "collision");
	json_t *ms = json_object_get(j, "members");
	assert_int_equal(json_array_size(ms), s->n_members);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(ms, 0), "stores")), 100);
	json_decref(j);
	free(buf);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/*
 * The all-CPUs pattern and its neighbours (issue 11), per-CPU samples on
 * line 0 (w at 0, r at 8) and line 2 (ref at 128).  The collision score
 * counts every (store of one member on CPU c, access of another on CPU
 * d != c) pair, whatever else c and d do.
 */

/* One writer, many readers: w stored 100 by CPU 0, r loaded 50 by CPUs 1,
 * 2, 3: 3 x min(100, 50) = 150, a collision. */
static void test_one_writer_many_readers(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[] = { ts(0, 0, 0, 100), ts(8, 1, 50, 0), ts(8, 2, 50, 0),
				  ts(8, 3, 50, 0) };
	struct slt_access_profile *p;
	struct slt_analysis *a = run(s, v, 4, &p);
	assert_int_equal(a->n_findings, 1);
	assert_int_equal(a->findings[0].kind, SLT_FIND_COLLISION);
	assert_true(a->findings[0].score == 150);
	assert_int_equal(a->findings[0].members[0], idx(s, "w"));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Every CPU 0..3 stores w 100 and loads it 100, and loads r 50.
 *   collision: w's stores x r's loads on other CPUs: 4 x 3 x min(100, 50)
 *              = 600 (r stores nothing: no pair the other way);
 *   true sharing of w: 4 x 3 x min(100, 200) = 1200, not fixable.
 * The old estimator (all on the line minus each member's own pairs)
 * cancelled to 0 here: 4 x 3 x min(100, 250) - 1200. */
static void test_all_cpus_write_a_read_b(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[12];
	for (int c = 0; c < 4; c++) {
		v[3 * c] = ts(0, c, 100, 0);
		v[3 * c + 1] = ts(0, c, 0, 100);
		v[3 * c + 2] = ts(8, c, 50, 0);
	}
	struct slt_access_profile *p;
	struct slt_analysis *a = run(s, v, 12, &p);
	assert_int_equal(a->classes[idx(s, "w")].cls, SLT_CLASS_TRUE_SHARED);
	assert_int_equal(a->classes[idx(s, "r")].cls, SLT_CLASS_READ_MOSTLY);
	assert_int_equal(a->n_findings, 2);
	const struct slt_finding *f = find(a, SLT_FIND_TRUE_SHARING, 0);
	assert_non_null(f);
	assert_true(f->score == 1200);
	assert_false(f->layout_fixable);
	assert_non_null(strstr(f->advice, "per-CPU"));
	assert_null(strstr(f->advice, "PADDING"));
	f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score == 600);
	assert_true(f->layout_fixable);
	assert_int_equal(f->n_writers, 1);
	assert_int_equal(f->members[0], idx(s, "w"));
	assert_int_equal(f->members[1], idx(s, "r"));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Two writers of two members: w stored 30 by CPU 0, r stored 20 by CPU 1:
 * min(30, 20) + min(20, 30) = 40, write-write. */
static void test_two_writers_two_members(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[] = { ts(0, 0, 0, 30), ts(8, 1, 0, 20) };
	struct slt_access_profile *p;
	struct slt_analysis *a = run(s, v, 2, &p);
	assert_int_equal(a->n_findings, 1);
	assert_int_equal(a->findings[0].kind, SLT_FIND_WRITE_WRITE);
	assert_true(a->findings[0].score == 40);
	assert_int_equal(a->findings[0].n_writers, 2);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* ref alone, stored and loaded 10 by each of CPUs 0..2: true sharing
 * only (3 x 2 x min(10, 20) = 60), no collision on its line. */
static void test_alone_true_sharing_only(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[] = { ts(128, 0, 10, 10), ts(128, 1, 10, 10), ts(128, 2, 10, 10) };
	struct slt_access_profile *p;
	struct slt_analysis *a = run(s, v, 3, &p);
	assert_int_equal(a->n_findings, 1);
	assert_int_equal(a->findings[0].kind, SLT_FIND_TRUE_SHARING);
	assert_true(a->findings[0].score == 60);
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* A profile with loads only: no_stores, and each line whose loads saw
 * HITM is an unseen-writer finding scored by its HITM count (r: 7). */
static void test_no_stores_hitm(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[] = { ts(8, 1, 50, 0), ts(64, 2, 40, 0) };
	v[0].hitm_local = 7;
	struct slt_access_profile *p;
	struct slt_analysis *a = run(s, v, 2, &p);
	assert_true(a->no_stores);
	assert_int_equal(a->n_findings, 1);
	assert_int_equal(a->findings[0].kind, SLT_FIND_UNSEEN_WRITER);
	assert_int_equal(a->findings[0].line, 0);
	assert_true(a->findings[0].score == 7);
	assert_int_equal(a->findings[0].n_members, 1);
	assert_int_equal(a->findings[0].members[0], idx(s, "r"));
	assert_string_equal(slt_finding_kind_name(a->findings[0].kind), "unseen-writer");
	slt_analysis_free(a);
	slt_access_profile_free(p);
	/* with one store anywhere it is an ordinary profile */
	struct slt_sample w[] = { ts(8, 1, 50, 0), ts(128, 2, 0, 1) };
	w[0].hitm_local = 7;
	a = run(s, w, 2, &p);
	assert_false(a->no_stores);
	assert_null(find(a, SLT_FIND_UNSEEN_WRITER, 0));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	/* the stores fell on a member the struct lacks ("cgf"): the events
	 * record stores, so the profile is not loads-only (the did-you-mean
	 * warning is the right one then) */
	struct slt_sample u[] = { ts(8, 1, 50, 0),
				  { .flags = SLT_SAMPLE_MEMBER | SLT_SAMPLE_CPU, .member = "cgf",
				    .cpu = 0, .stores = 100 } };
	u[0].hitm_local = 7;
	a = run(s, u, 2, &p);
	assert_int_equal(p->input_stores, 100);
	assert_int_equal(p->unknown_member_samples, 100);
	assert_false(a->no_stores);
	assert_null(find(a, SLT_FIND_UNSEEN_WRITER, 0));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Writer labels: x and y hot-write on line 1 collide as write-write only
 * when their labels differ (hot-write:rx, hot-write:tx); one label or none
 * may be one writer. */
static void test_writer_labels(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	enum slt_class g[16] = { 0 };
	const char *lab[16] = { 0 };
	g[idx(s, "x")] = SLT_CLASS_HOT_WRITE;
	g[idx(s, "y")] = SLT_CLASS_HOT_WRITE;
	lab[idx(s, "x")] = "rx";
	lab[idx(s, "y")] = "tx";
	struct slt_analysis_opts o = { .given = g, .given_label = lab };
	slt_classify_opts_default(&o.classify);
	struct slt_analysis *a;
	struct slt_error err;
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	const struct slt_finding *f = find(a, SLT_FIND_WRITE_WRITE, 1);
	assert_non_null(f);
	assert_true(f->score == 1);
	assert_int_equal(f->n_writers, 2);
	assert_string_equal(a->classes[idx(s, "x")].label, "rx");
	slt_analysis_free(a);
	lab[idx(s, "y")] = "rx";
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	assert_int_equal(a->n_findings, 0);
	slt_analysis_free(a);
	o.given_label = NULL;
	assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
	assert_int_equal(a->n_findings, 0);
	slt_analysis_free(a);
	slt_arena_free(ar);
}

/*
 * struct ne { struct in { long a; long b; union { long c; long d; }; } n;
 *             long r; }: n at 0 (24 bytes), r at 24, one line.  Classes n
 * hot-write and r read-mostly give one pair, score 1, whether n is folded
 * or expanded (-E: n.a, n.b, n.c, n.d inherit hot-write but are one unit).
 * With n.b read-mostly too, the pair inside n is not counted.
 */
static void test_expand_same_score(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_type *l = G_INT(ar, "long int", 8);
	struct slt_type *u = g_comp(ar, SLT_T_UNION, NULL, 8, 2);
	g_mem(u, "c", l, 0, 0, 0);
	g_mem(u, "d", l, 0, 0, 0);
	struct slt_type *in = g_comp(ar, SLT_T_STRUCT, "in", 24, 3);
	g_mem(in, "a", l, 0, 0, 0);
	g_mem(in, "b", l, 64, 0, 0);
	g_mem(in, NULL, u, 128, 0, 0);
	struct slt_type *t = g_comp(ar, SLT_T_STRUCT, "ne", 32, 2);
	g_mem(t, "n", in, 0, 0, 0);
	g_mem(t, "r", l, 192, 0, 0);
	double score[2];
	for (int e = 0; e < 2; e++) {
		struct slt_struct *s = slt_arena_alloc(ar, sizeof(*s));
		struct slt_error err;
		assert_int_equal(slt_build_struct(ar, t, SLT_FORMAT_DWARF, e, "ne.o", s, &err), 0);
		assert_true(e ? s->n_members > 2 : s->n_members == 2);
		enum slt_class g[16] = { 0 };
		g[idx(s, "n")] = SLT_CLASS_HOT_WRITE;
		g[idx(s, "r")] = SLT_CLASS_READ_MOSTLY;
		struct slt_analysis_opts o = { .given = g };
		slt_classify_opts_default(&o.classify);
		struct slt_analysis *a;
		assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
		assert_int_equal(a->n_findings, 1);
		score[e] = a->findings[0].score;
		/* the class is named once, by the member it was given to */
		assert_int_equal(a->findings[0].n_members, 2);
		slt_analysis_free(a);
		if (e) {
			g[idx(s, "b")] = SLT_CLASS_READ_MOSTLY;
			assert_int_equal(slt_analyze(s, NULL, &o, &a, &err), 0);
			assert_true(a->findings[0].score == 1);
			slt_analysis_free(a);
		}
	}
	assert_true(score[0] == 1);
	assert_true(score[1] == score[0]);
	slt_arena_free(ar);
}

/*
 * struct aw { struct { long a; long b; long c; }; }: 24 bytes, one line.
 * CPUs 0..3 each store a 100 and load b and c 100: a is true-shared, b and
 * c read-mostly; the anonymous struct holding them is no member of its
 * own (its sums, 1200 stores and 800 loads on 4 writing CPUs, would read
 * "true-shared" and hide its members' classes from the gate's rules): no
 * measured class.  Findings as for top-level members: the collision of a
 * with b and c (each CPU's 100 stores x the other 3 CPUs' loads of b and
 * of c: 4 x 3 x 100 x 2 = 2400) and a's true sharing (4 x 3 x 100).
 */
static void test_anonymous_level_unclassed(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_type *l = G_INT(ar, "long int", 8);
	struct slt_type *in = g_comp(ar, SLT_T_STRUCT, NULL, 24, 3);
	g_mem(in, "a", l, 0, 0, 0);
	g_mem(in, "b", l, 64, 0, 0);
	g_mem(in, "c", l, 128, 0, 0);
	struct slt_type *t = g_comp(ar, SLT_T_STRUCT, "aw", 24, 1);
	g_mem(t, NULL, in, 0, 0, 0);
	struct slt_struct *s = slt_arena_alloc(ar, sizeof(*s));
	struct slt_error err;
	assert_int_equal(slt_build_struct(ar, t, SLT_FORMAT_DWARF, false, "aw.o", s, &err), 0);
	assert_int_equal(s->n_members, 4);
	struct slt_sample v[12];
	for (int c = 0; c < 4; c++) {
		v[3 * c] = typed_sample("aw", 0, c, 0, 100);
		v[3 * c + 1] = typed_sample("aw", 8, c, 100, 0);
		v[3 * c + 2] = typed_sample("aw", 16, c, 100, 0);
	}
	struct slt_access_profile *p;
	struct slt_analysis *a = run(s, v, 12, &p);
	assert_string_equal(s->members[0].name, "");
	assert_int_equal(a->classes[0].cls, SLT_CLASS_NONE);
	assert_int_equal(a->classes[idx(s, "a")].cls, SLT_CLASS_TRUE_SHARED);
	assert_int_equal(a->classes[idx(s, "b")].cls, SLT_CLASS_READ_MOSTLY);
	assert_int_equal(a->classes[idx(s, "c")].cls, SLT_CLASS_READ_MOSTLY);
	assert_int_equal(a->n_findings, 2);
	const struct slt_finding *f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score == 2400);
	assert_int_equal(f->n_members, 3);
	f = find(a, SLT_FIND_TRUE_SHARING, 0);
	assert_non_null(f);
	assert_true(f->score == 1200);
	assert_int_equal(f->members[0], idx(s, "a"));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

/* Classes and samples together: w given hot-write (a classes file says it
 * is written), the samples show CPUs 0..3 each storing it 100 and loading
 * r 50.  The given class stays w's class; the measured true sharing is
 * still a finding (4 x 3 x min(100, 100) = 1200, as without the classes),
 * and the collision keeps its per-CPU score (4 x 3 x min(100, 50) = 600). */
static void test_given_with_measured_true_sharing(void **state)
{
	struct slt_arena *ar = slt_arena_new();
	struct slt_struct *s = an(ar);
	struct slt_sample v[8];
	for (int c = 0; c < 4; c++) {
		v[2 * c] = ts(0, c, 0, 100);
		v[2 * c + 1] = ts(8, c, 50, 0);
	}
	enum slt_class g[16] = { 0 };
	g[idx(s, "w")] = SLT_CLASS_HOT_WRITE;
	g[idx(s, "r")] = SLT_CLASS_READ_MOSTLY;
	struct slt_analysis_opts o = { .given = g };
	slt_classify_opts_default(&o.classify);
	struct slt_access_profile *p = join(s, v, 8);
	struct slt_analysis *a;
	struct slt_error err;
	assert_int_equal(slt_analyze(s, p, &o, &a, &err), 0);
	assert_int_equal(a->classes[idx(s, "w")].cls, SLT_CLASS_HOT_WRITE);
	assert_true(a->classes[idx(s, "w")].given);
	assert_int_equal(a->classes[idx(s, "w")].measured, SLT_CLASS_TRUE_SHARED);
	assert_int_equal(a->n_findings, 2);
	const struct slt_finding *f = find(a, SLT_FIND_TRUE_SHARING, 0);
	assert_non_null(f);
	assert_true(f->score == 1200);
	assert_int_equal(f->members[0], idx(s, "w"));
	f = find(a, SLT_FIND_COLLISION, 0);
	assert_non_null(f);
	assert_true(f->score == 600);
	slt_analysis_free(a);
	/* one writing CPU: hot-write measured too, no true sharing */
	slt_access_profile_free(p);
	struct slt_sample one[] = { ts(0, 0, 0, 100), ts(8, 1, 50, 0) };
	p = join(s, one, 2);
	assert_int_equal(slt_analyze(s, p, &o, &a, &err), 0);
	assert_null(find(a, SLT_FIND_TRUE_SHARING, 0));
	assert_non_null(find(a, SLT_FIND_COLLISION, 0));
	slt_analysis_free(a);
	slt_access_profile_free(p);
	slt_arena_free(ar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_cpu),
		cmocka_unit_test(test_single_cpu_nothing),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_classes_check),
		cmocka_unit_test(test_true_sharing_per_line),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_one_writer_many_readers),
		cmocka_unit_test(test_all_cpus_write_a_read_b),
		cmocka_unit_test(test_two_writers_two_members),
		cmocka_unit_test(test_alone_true_sharing_only),
		cmocka_unit_test(test_no_stores_hitm),
		cmocka_unit_test(test_writer_labels),
		cmocka_unit_test(test_expand_same_score),
		cmocka_unit_test(test_anonymous_level_unclassed),
		cmocka_unit_test(test_given_with_measured_true_sharing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
