/* SPDX-License-Identifier: MIT */
/*
 * The advice writers (src/report/advice_text.c, advice_json.c) on
 * hand-made advice around a real layout (struct holes of
 * fixtures/layout/holes.c compiled by gcc, DWARF 5): the header figures,
 * the size-class tip, the layout exactly as slt_report_layout_text()
 * prints it, the C declaration, the diff, the findings left, the note when
 * nothing is proposed, structlint.advice/v1, and write errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "structlint/advice_report.h"

struct fx {
	struct slt_layout *l;
	struct slt_analysis a;
	struct slt_proposal p[2];
	size_t moved[2];
	struct slt_advice adv;
};

static int setup(void **state)
{
	const char *dir = getenv("FIXTURES_DIR");
	char path[4096];
	const char *names[] = { "holes" };
	struct slt_error err;
	struct fx *f = calloc(1, sizeof(*f));
	assert_non_null(dir);
	assert_non_null(f);
	snprintf(path, sizeof(path), "%s/gcc-dwarf5/holes.o", dir);
	assert_int_equal(slt_layout_load(path, names, 1, NULL, &f->l, &err), 0);
	const struct slt_struct *s = &f->l->structs[0];
	assert_true(s->n_members >= 3);
	f->a = (struct slt_analysis){ .layout = s, .cacheline_size = 64,
				      .basis = SLT_BASIS_CLASSES, .n_findings = 2 };
	f->moved[0] = 0;
	f->moved[1] = 2;
	f->p[0] = (struct slt_proposal){
		.kind = SLT_PROPOSAL_PADDING, .layout = *s,
		.moved = f->moved, .n_moved = 2,
		.size_before = 2500, .size_after = 2560, .bytes_added = 60,
		.lines_before = 40, .lines_after = 40,
		.score_before = 2, .score_after = 0, .cost_before = 7.5, .cost_after = 1.25,
		.slab_before = { .kmalloc_class = 4096, .order = 3, .objects_per_slab = 13, .waste_per_slab = 268,
				 .object_size = 2504, .slab_bytes = 32768, .cache_align = 8 },
		.slab_after = { .kmalloc_class = 4096, .order = 3, .objects_per_slab = 12, .waste_per_slab = 2048,
				.object_size = 2560, .slab_bytes = 32768, .cache_align = 8 },
		.c_decl = "struct holes {\n\tchar a;\n};", .summary = "pad between the groups",
	};
	f->p[1] = f->p[0];
	f->p[1].kind = SLT_PROPOSAL_PARETO;
	f->p[1].size_after = 4160;
	f->p[1].bytes_added = 1660;
	/* over 8 KiB: kmalloc() goes to the page allocator */
	f->p[1].slab_after = (struct slt_slab_cost){ .page_allocator = true, .page_order = 2,
		.kmalloc_bytes = 16384, .order = 3, .objects_per_slab = 1,
		.object_size = 4160, .slab_bytes = 32768, .cache_align = 8 };
	f->p[1].n_moved = 0;
	f->p[1].c_decl = "struct holes {};\n";
	f->adv = (struct slt_advice){ .analysis = &f->a, .proposals = f->p,
				      .n_proposals = 2, .note = "" };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	slt_layout_free(f->l);
	free(f);
	return 0;
}

static char *render(const struct slt_advice *adv, bool json,
		    const struct slt_advice_report_opts *r)
{
	struct slt_error err;
	struct slt_report_opts o = { .cacheline_size = 64 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	int rc = json ? slt_report_advice_json(f, adv, &o, r, &err)
		      : slt_report_advice_text(f, adv, &o, r, &err);
	fclose(f);
	assert_int_equal(rc, 0);
	return buf;
}

static char *layout_text(const struct slt_struct *s)
{
	struct slt_layout one = { .structs = (struct slt_struct *)s, .n_structs = 1 };
	struct slt_report_opts o = { .cacheline_size = 64 };
	struct slt_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(slt_report_layout_text(f, &one, &o, &err), 0);
	fclose(f);
	return buf;
}

static void test_text(void **state)
{
	struct fx *f = *state;
	const struct slt_struct *s = &f->l->structs[0];
	const char *diffs[2] = { "--- a/x.h\n+++ b/x.h\n@@ -1 +1 @@\n-a\n+b\n", NULL };
	ssize_t left[2] = { 0, -1 };
	struct slt_advice_report_opts r = { .nr_cpus = 4, .diffs = diffs, .findings_after = left };
	char *t = render(&f->adv, false, &r);
	char *lay = layout_text(s);
	char want[512];

	assert_non_null(strstr(t, "/* structlint: proposal 1 of 2: padding: 2500 -> 2560 bytes (+60), "
				  "40 -> 40 cachelines, score 2 -> 0, cost 7.5 -> 1.25, 0 findings left */\n"));
	/* the cache assumed is said; each side's objects, order and slab
	 * bytes per object; the kmalloc class apart */
	assert_non_null(strstr(t, "/* slab, in a kmem_cache of its own aligned to 8 bytes (assumed: "
				  "--base-align, no SLAB_HWCACHE_ALIGN), 4 CPUs: 2504 B objects, 13 per "
				  "order-3 slab (2520 B of slab each) -> 2560 B objects, 12 per order-3 "
				  "slab (2730 B of slab each); kmalloc()'d instead (a guess: the binary "
				  "does not name the cache that allocates it): kmalloc-4k -> "
				  "kmalloc-4k */\n"));
	snprintf(want, sizeof(want), "/* moved: %s, %s */\n/* pad between the groups */\n",
		 s->members[0].name, s->members[2].name);
	assert_non_null(strstr(t, want));
	/* the layout exactly as the layout writer prints it, twice */
	char *l1 = strstr(t, lay);
	assert_non_null(l1);
	assert_non_null(strstr(l1 + 1, lay));
	assert_non_null(strstr(t, "\n/* C declaration: */\nstruct holes {\n\tchar a;\n};\n"));
	assert_non_null(strstr(t, "\n/* diff: */\n--- a/x.h\n+++ b/x.h\n"));
	/* proposal 2: not re-checked, no diff, tips into 8k, no moved line */
	char *p2 = strstr(t, "/* structlint: proposal 2 of 2: pareto: 2500 -> 4160 bytes (+1660),");
	assert_non_null(p2);
	assert_null(strstr(p2, "findings left"));
	assert_non_null(strstr(p2, "13 per order-3 slab (2520 B of slab each) -> 4160 B objects, "
				   "1 per order-3 slab (32768 B of slab each); kmalloc()'d instead (a "
				  "guess: the binary does not name the cache that allocates it): "
				   "kmalloc-4k -> page allocator, order 2, tips into a larger size "
				   "class */\n"));
	assert_null(strstr(p2, "/* moved:"));
	assert_null(strstr(p2, "/* diff: */"));
	assert_null(strstr(t, "tips into a larger size class */\n/* moved"));
	/* only the second proposal tips */
	assert_ptr_equal(strstr(t, "tips into"), strstr(p2, "tips into"));
	free(lay);
	free(t);
}

static void test_note(void **state)
{
	struct fx *f = *state;
	struct slt_advice none = { .analysis = &f->a, .note = "frozen: findings only" };
	char *t = render(&none, false, NULL);
	assert_string_equal(t, "/* structlint: no proposal: frozen: findings only */\n");
	free(t);
	t = render(&none, true, NULL);
	json_error_t je;
	json_t *d = json_loads(t, 0, &je);
	assert_non_null(d);
	assert_string_equal(json_string_value(json_object_get(d, "note")), "frozen: findings only");
	assert_int_equal(json_array_size(json_object_get(d, "proposals")), 0);
	json_decref(d);
	free(t);
}

static void test_json(void **state)
{
	struct fx *f = *state;
	const struct slt_struct *s = &f->l->structs[0];
	const char *diffs[2] = { NULL, "@@ -1 +1 @@\n" };
	ssize_t left[2] = { 3, -1 };
	struct slt_advice_report_opts r = { .nr_cpus = 8, .separation = 128,
					    .diffs = diffs, .findings_after = left };
	char *t = render(&f->adv, true, &r);
	json_error_t je;
	json_t *d = json_loads(t, 0, &je);
	assert_non_null(d);
	assert_string_equal(json_string_value(json_object_get(d, "schema")), "structlint.advice/v1");
	assert_string_equal(json_string_value(json_object_get(d, "struct")), "holes");
	assert_int_equal(json_integer_value(json_object_get(d, "size")), s->size);
	assert_string_equal(json_string_value(json_object_get(d, "score_basis")), "classes");
	assert_int_equal(json_integer_value(json_object_get(d, "findings")), 2);
	assert_int_equal(json_integer_value(json_object_get(d, "nr_cpus")), 8);
	assert_int_equal(json_integer_value(json_object_get(d, "separation")), 128);
	json_t *ps = json_object_get(d, "proposals");
	assert_int_equal(json_array_size(ps), 2);
	json_t *p0 = json_array_get(ps, 0), *p1 = json_array_get(ps, 1);
	assert_int_equal(json_integer_value(json_object_get(p0, "rank")), 1);
	assert_string_equal(json_string_value(json_object_get(p0, "kind")), "padding");
	assert_int_equal(json_integer_value(json_object_get(p0, "bytes_added")), 60);
	assert_true(json_real_value(json_object_get(p0, "cost_after")) == 1.25);
	assert_int_equal(json_integer_value(json_object_get(p0, "findings_after")), 3);
	assert_null(json_object_get(p1, "findings_after"));
	assert_null(json_object_get(p0, "diff"));
	assert_string_equal(json_string_value(json_object_get(p1, "diff")), "@@ -1 +1 @@\n");
	assert_false(json_is_true(json_object_get(p0, "tips_size_class")));
	assert_true(json_is_true(json_object_get(p1, "tips_size_class")));
	json_t *sa = json_object_get(p1, "slab_after");
	assert_int_equal(json_integer_value(json_object_get(sa, "kmalloc_class")), 0);
	assert_int_equal(json_integer_value(json_object_get(sa, "page_allocator_order")), 2);
	assert_null(json_object_get(json_object_get(p0, "slab_after"), "page_allocator_order"));
	assert_int_equal(json_integer_value(json_object_get(sa, "objects_per_slab")), 1);
	json_t *mv = json_object_get(p0, "moved");
	assert_int_equal(json_array_size(mv), 2);
	assert_string_equal(json_string_value(json_array_get(mv, 1)), s->members[2].name);
	json_t *ms = json_object_get(json_object_get(p0, "layout"), "members");
	assert_int_equal(json_array_size(ms), s->n_members);
	for (size_t i = 0; i < s->n_members; i++) {
		json_t *m = json_array_get(ms, i);
		const struct slt_member *sm = &s->members[i];
		uint32_t al = sm->alignment ? sm->alignment : sm->natural_alignment;
		assert_string_equal(json_string_value(json_object_get(m, "name")), sm->name);
		assert_int_equal(json_integer_value(json_object_get(m, "offset")), sm->offset);
		assert_int_equal(json_integer_value(json_object_get(m, "alignment")), al);
		assert_true(al >= 1);
		assert_int_equal(json_object_get(m, "bit_size") != NULL,
				 (sm->flags & SLT_MEMBER_BITFIELD) != 0);
	}
	assert_string_equal(json_string_value(json_object_get(p1, "c_decl")), "struct holes {};\n");
	json_decref(d);
	free(t);
}

/* An unbuffered /dev/full fails every write: both writers say SLT_EIO. */
static void test_write_error(void **state)
{
	struct fx *f = *state;
	struct slt_error err;
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		skip();
	setvbuf(full, NULL, _IONBF, 0);
	assert_int_equal(slt_report_advice_text(full, &f->adv, NULL, NULL, &err), SLT_EIO);
	assert_int_equal(slt_report_advice_json(full, &f->adv, NULL, NULL, &err), SLT_EIO);
	fclose(full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_note, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_error, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
