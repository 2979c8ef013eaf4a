/* SPDX-License-Identifier: MIT */
/*
 * The advisor's promises to a first-time user (issue 4 follow-up):
 *   - outside --size-only no proposal has more sharing than the original
 *     (a SIZE proposal is offered only when its score is <= before);
 *   - MINIMAL relocates the fewest members: no single relocation (one
 *     movable unit to any legal position) leaves fewer fixable findings,
 *     or as few with fewer members relocated (exhaustive check here);
 *   - relocated/shifted: one definition (advice.h), the same in the list,
 *     the count and the summary.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "heavy.h"
#include "advice/advice_int.h"
#include "structlint/advice.h"
#include "structlint/advice_report.h"
#include "structlint/analysis.h"

#define MAXM 32
#define ADVICE_RNG_SEED 0x2545f4914f6cdd1dull
#include "advice_helpers.h"

/* n top-level scalar/array members laid out by C rules, random classes
 * (no mixed members, no 100-byte arrays: test_advice.c's draw). */
static void gen_min(struct rs *r, size_t n)
{
	static const uint32_t sz[] = { 1, 2, 4, 8, 16, 24, 40, 12, 3, 8, 8, 56 };
	static const uint32_t al[] = { 1, 2, 4, 8, 8, 8, 8, 4, 1, 8, 8, 8 };
	static const enum slt_class cl[] = { SLT_CLASS_READ_MOSTLY, SLT_CLASS_HOT_WRITE,
		SLT_CLASS_COLD, SLT_CLASS_NONE, SLT_CLASS_READ_MOSTLY, SLT_CLASS_COLD };
	gen_from(r, n, sz, al, sizeof(sz) / sizeof(sz[0]), cl, sizeof(cl) / sizeof(cl[0]));
}

/* Outside --size-only, no proposal makes sharing worse: a SIZE proposal
 * that saves bytes by putting a writer beside read-mostly members (the
 * 6.12 mem_cgroup_per_node case: -64 bytes, score 0 -> 2) is not offered. */
static void test_size_never_worse(void **state)
{
	(void)state;
	size_t n_size = 0, n_plain_size = 0;
	const int n_it = reps(300, 60);
	for (int it = 0; it < n_it; it++) {
		struct rs r;
		struct slt_error err = { 0 };
		struct slt_advice *adv = NULL;
		struct slt_advice_opts o = { .cacheline_size = 64,
					     .move_first = it % 2 };
		gen_min(&r, 3 + rnd(14));
		struct slt_analysis *a = analyze(&r.s, r.cls);
		assert_int_equal(slt_advise(a, &o, &adv, &err), 0);
		for (size_t k = 0; k < adv->n_proposals; k++) {
			const struct slt_proposal *p = &adv->proposals[k];
			assert_true(p->score_after <= p->score_before + 1e-9);
			n_plain_size += p->kind == SLT_PROPOSAL_SIZE;
		}
		slt_advice_free(adv);
		/* --size-only still offers the smallest layout whatever its
		 * sharing */
		o.size_only = true;
		assert_int_equal(slt_advise(a, &o, &adv, &err), 0);
		n_size += adv->n_proposals;
		slt_advice_free(adv);
		slt_analysis_free(a);
	}
	printf("# size proposals: %zu with --size-only, %zu beside the others\n",
	       n_size, n_plain_size);
	assert_true(n_size > n_plain_size);
	assert_true(n_plain_size > 0);
}

/* Read-mostly-on-a-written-line findings of layout s with classes cls. */
static size_t collisions(const struct slt_struct *s, const enum slt_class *cls)
{
	struct slt_analysis *a = analyze(s, cls);
	size_t n = 0;
	for (size_t i = 0; i < a->n_findings; i++)
		n += a->findings[i].kind == SLT_FIND_COLLISION;
	slt_analysis_free(a);
	return n;
}

/* r's members in the order ord[] (indices into r->m) laid out by C rules
 * into *o (names and classes follow). */
static void reorder(const struct rs *r, const size_t *ord, struct rs *o)
{
	uint64_t off = 0;
	*o = *r;
	o->s.members = o->m;
	for (size_t i = 0; i < r->s.n_members; i++) {
		o->m[i] = r->m[ord[i]];
		o->cls[i] = r->cls[ord[i]];
		off = up(off, o->m[i].natural_alignment);
		o->m[i].offset = off;
		off += o->m[i].size;
	}
	o->s.size = up(off, r->s.alignment);
}

/* The relocated count the summary of proposal p states. */
static size_t summary_relocated(const struct slt_proposal *p)
{
	const char *s = strchr(p->summary, ':');
	assert_non_null(s);
	return strtoul(s + 1, NULL, 10);
}

/* MINIMAL relocates the fewest members: whenever one relocation of a
 * member (brute force here, every member to every position, each layout
 * analysed by slt_analyze()) leaves no read-mostly member on a written
 * line, the minimal proposal relocates exactly one member and leaves none
 * either, with no more members shifted than the best such relocation. */
static void test_minimal_single(void **state)
{
	(void)state;
	size_t n_single = 0, n_checked = 0;
	const int n_it = reps(150, 60);
	for (int it = 0; it < n_it; it++) {
		struct rs r, t;
		struct slt_error err = { 0 };
		struct slt_advice *adv = NULL;
		struct slt_advice_opts o = { .cacheline_size = 64, .move_first = true,
					     .max_proposals = 20 };
		size_t n, ord[MAXM], best_shift = SIZE_MAX;
		gen_min(&r, 4 + rnd(16));
		n = r.s.n_members;
		struct slt_analysis *a = analyze(&r.s, r.cls);
		size_t before = 0;
		for (size_t i = 0; i < a->n_findings; i++)
			before += a->findings[i].kind == SLT_FIND_COLLISION;
		for (size_t i = 0; i < n && before; i++)
			for (size_t j = 0; j < n; j++) {
				size_t k = 0, sh = 0;
				if (j == i)
					continue;
				for (size_t m = 0; m < n; m++)
					if (m != i)
						ord[k++] = m;
				memmove(ord + j + 1, ord + j, (n - 1 - j) * sizeof(*ord));
				ord[j] = i;
				reorder(&r, ord, &t);
				if (collisions(&t.s, t.cls))
					continue;
				for (size_t m = 0; m < n; m++)
					sh += ord[m] != i &&
					      t.m[m].offset != r.m[ord[m]].offset;
				if (sh < best_shift)
					best_shift = sh;
			}
		assert_int_equal(slt_advise(a, &o, &adv, &err), 0);
		const struct slt_proposal *mp = NULL;
		for (size_t k = 0; k < adv->n_proposals; k++)
			if (adv->proposals[k].kind == SLT_PROPOSAL_MINIMAL)
				mp = &adv->proposals[k];
		if (best_shift != SIZE_MAX) {
			n_single++;
			assert_non_null(mp);
			if (mp->n_moved != 1 || mp->n_shifted > best_shift)
				printf("# struct %d: minimal relocates %zu, shifts %zu; "
				       "one relocation shifting %zu suffices\n", it,
				       mp->n_moved, mp->n_shifted, best_shift);
			assert_int_equal(mp->n_moved, 1);
			assert_true(mp->n_shifted <= best_shift);
			assert_int_equal(summary_relocated(mp), 1);
			enum slt_class cls[MAXM * 2] = { 0 };
			for (size_t i = 0; i < mp->layout.n_members; i++)
				for (size_t m = 0; m < n; m++)
					if (!strcmp(mp->layout.members[i].name, r.m[m].name))
						cls[i] = r.cls[m];
			assert_int_equal(collisions(&mp->layout, cls), 0);
		}
		n_checked += mp != NULL;
		slt_advice_free(adv);
		slt_analysis_free(a);
	}
	printf("# minimal: %zu structs fixable by one relocation, %zu minimal "
	       "proposals\n", n_single, n_checked);
	assert_true(n_single * 150 >= 20 * (size_t)n_it);
}

/* Top-level members of l not in a longest run kept in the original
 * (r) order: the relocated count, computed here by O(n^2) DP. */
static size_t lis_relocated(const struct rs *r, const struct slt_struct *l)
{
	size_t pos[MAXM * 2], n = 0, best[MAXM * 2], top = 0;
	for (size_t i = 0; i < l->n_members; i++) {
		/* a member an ISOLATE proposal wrapped counts as top-level */
		int32_t pa = l->members[i].parent;
		if (l->members[i].depth &&
		    !(pa >= 0 && l->members[pa].type == slt_adv_wrap_type &&
		      !l->members[pa].depth))
			continue;
		for (size_t k = 0; k < r->s.n_members; k++)
			if (!strcmp(r->m[k].name, l->members[i].name))
				pos[n++] = k;
	}
	for (size_t i = 0; i < n; i++) {
		best[i] = 1;
		for (size_t j = 0; j < i; j++)
			if (pos[j] < pos[i] && best[j] + 1 > best[i])
				best[i] = best[j] + 1;
		if (best[i] > top)
			top = best[i];
	}
	return n - top;
}

/* Names on the text's "moved:" line of proposal k (0-based). */
static size_t text_moved(const char *t, size_t k)
{
	const char *p = t;
	for (size_t i = 0; i <= k; i++) {
		p = strstr(p, "/* structlint: proposal ");
		assert_non_null(p);
		p++;
	}
	const char *end = strstr(p, "/* structlint: proposal ");
	const char *m = strstr(p, "/* moved:");
	if (!m || (end && m > end))
		return 0;
	size_t n = 1;
	for (; *m != '\n'; m++)
		n += *m == ',';
	return n;
}

/* One definition of relocated members: the summary's count, the text's
 * moved: line, JSON "moved" and n_moved agree, list top-level members
 * only (a relocated nested struct is one member, its children are not
 * listed: the text said `moved: s, x, y` beside `1 member relocated`),
 * and equal all but a longest run kept in the original order, also for a
 * --keep-together list that reverses two members (a padding proposal
 * said `0 members relocated` though it reordered them). */
static void test_moved_one_definition(void **state)
{
	(void)state;
	struct rs r;
	memset(&r, 0, sizeof(r));
	const struct { const char *n; uint64_t off, size; uint32_t al, depth;
		       int32_t parent; enum slt_class c; } d[] = {
		{ "a", 0, 8, 8, 0, -1, SLT_CLASS_READ_MOSTLY },
		{ "s", 8, 16, 8, 0, -1, SLT_CLASS_HOT_WRITE },
		{ "x", 8, 8, 8, 1, 1, SLT_CLASS_HOT_WRITE },
		{ "y", 16, 8, 8, 1, 1, SLT_CLASS_HOT_WRITE },
		{ "b", 24, 8, 8, 0, -1, SLT_CLASS_READ_MOSTLY },
		{ "c", 32, 32, 8, 0, -1, SLT_CLASS_COLD },
		{ "e", 64, 8, 8, 0, -1, SLT_CLASS_COLD },
		{ "f", 72, 8, 8, 0, -1, SLT_CLASS_HOT_WRITE },
		{ "g", 80, 8, 8, 0, -1, SLT_CLASS_READ_MOSTLY },
		{ "h", 88, 40, 8, 0, -1, SLT_CLASS_COLD },
	};
	size_t n = sizeof(d) / sizeof(d[0]);
	for (size_t i = 0; i < n; i++) {
		r.m[i] = (struct slt_member){ .name = d[i].n, .type = "long",
			.decl_head = "long ", .decl_tail = "", .offset = d[i].off,
			.size = d[i].size, .natural_alignment = d[i].al,
			.depth = d[i].depth, .parent = d[i].parent };
		r.cls[i] = d[i].c;
	}
	r.m[1].type = "struct inner";
	r.m[1].decl_head = "struct inner ";
	r.m[1].flags = SLT_MEMBER_COMPOSITE;
	r.s = (struct slt_struct){ .name = "mv", .kind = SLT_KIND_STRUCT, .size = 128,
		.alignment = 8, .members = r.m, .n_members = n, .n_top_members = n - 2 };
	struct slt_analysis *a = analyze(&r.s, r.cls);
	const char *kt[] = { "f", "e", NULL };
	const char *const *ktl[] = { kt };
	size_t n_nested = 0, n_kt_pad = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct slt_advice_opts o = { .cacheline_size = 64, .move_first = true,
					     .max_proposals = 20 };
		struct slt_advice *adv;
		struct slt_error err = { 0 };
		if (pass) {
			o.keep_together = ktl;
			o.n_keep_together = 1;
		}
		assert_int_equal(slt_advise(a, &o, &adv, &err), 0);
		assert_true(adv->n_proposals > 0);
		char *t = NULL, *j = NULL;
		size_t tn = 0, jn = 0;
		FILE *f = open_memstream(&t, &tn);
		assert_int_equal(slt_report_advice_text(f, adv, NULL, NULL, &err), 0);
		fclose(f);
		f = open_memstream(&j, &jn);
		assert_int_equal(slt_report_advice_json(f, adv, NULL, NULL, &err), 0);
		fclose(f);
		json_error_t je;
		json_t *root = json_loads(j, 0, &je);
		assert_non_null(root);
		json_t *props = json_object_get(root, "proposals");
		assert_int_equal(json_array_size(props), adv->n_proposals);
		for (size_t k = 0; k < adv->n_proposals; k++) {
			const struct slt_proposal *p = &adv->proposals[k];
			size_t want = lis_relocated(&r, &p->layout);
			printf("# pass %d %s: relocated %zu (summary %zu, text %zu, "
			       "json %zu, longest run %zu), shifted %zu\n", pass,
			       slt_proposal_kind_name(p->kind), p->n_moved,
			       summary_relocated(p), text_moved(t, k),
			       json_array_size(json_object_get(json_array_get(props, k), "moved")),
			       want, p->n_shifted);
			assert_int_equal(p->n_moved, want);
			assert_int_equal(summary_relocated(p), want);
			assert_int_equal(text_moved(t, k), want);
			assert_int_equal(json_array_size(json_object_get(
				json_array_get(props, k), "moved")), want);
			for (size_t i = 0; i < p->n_moved; i++) {
				assert_int_equal(r.m[p->moved[i]].depth, 0);
				n_nested += p->moved[i] == 1;
			}
			for (size_t i = 0; i < p->n_shifted; i++)
				assert_int_equal(r.m[p->shifted[i]].depth, 0);
			if (pass && p->kind == SLT_PROPOSAL_PADDING) {
				assert_int_equal(p->n_moved, 1);
				n_kt_pad++;
			}
		}
		json_decref(root);
		free(t);
		free(j);
		slt_advice_free(adv);
	}
	slt_analysis_free(a);
	/* the cases the test is about did occur */
	assert_true(n_nested > 0);
	assert_int_equal(n_kt_pad, 1);
}

/* A separation below the line size, or not a multiple of it, is refused:
 * the blocks it names are not whole lines. */
static void test_separation_lines(void **state)
{
	(void)state;
	struct rs r;
	struct slt_error err = { 0 };
	struct slt_advice *adv = NULL;
	gen_min(&r, 8);
	struct slt_analysis *a = analyze(&r.s, r.cls);
	for (unsigned sep = 8; sep <= 256; sep *= 2) {
		struct slt_advice_opts o = { .cacheline_size = 64, .separation = sep };
		int rc = slt_advise(a, &o, &adv, &err);
		if (sep < 64) {
			assert_int_equal(rc, SLT_EUSAGE);
			assert_non_null(strstr(err.message, "multiple of the cacheline size"));
		} else {
			assert_int_equal(rc, 0);
			slt_advice_free(adv);
		}
	}
	struct slt_advice_opts o = { .cacheline_size = 64, .separation = 96 };
	assert_int_equal(slt_advise(a, &o, &adv, &err), SLT_EUSAGE);
	slt_analysis_free(a);
}

/* --move-anchors leaves a forced-aligned last member last (x86
 * task_struct's `thread`: "This must be the last member"), unless
 * move_last. */
static void test_move_anchors_last(void **state)
{
	(void)state;
	struct rs r;
	gen_min(&r, 10);
	/* the last member: 64 bytes aligned to 64 (____cacheline_aligned) */
	struct slt_member *t = &r.m[r.s.n_members];
	*t = r.m[0];
	snprintf(r.names[r.s.n_members], sizeof(r.names[0]), "thread");
	t->name = r.names[r.s.n_members];
	t->size = 64;
	t->alignment = 64;
	t->offset = up(r.s.size, 64);
	r.cls[r.s.n_members] = SLT_CLASS_HOT_WRITE;
	r.s.n_members++;
	r.s.n_top_members++;
	r.s.alignment = 64;
	r.s.size = t->offset + 64;
	/* it is written by another CPU than the read-mostly first members:
	 * moving it between them would be worth it to the cost model */
	r.cls[0] = SLT_CLASS_READ_MOSTLY;
	struct slt_analysis *a = analyze(&r.s, r.cls);
	size_t moved_away = 0;
	for (int last = 0; last < 2; last++) {
		struct slt_advice_opts o = { .cacheline_size = 64, .move_anchors = true,
					     .move_last = last, .move_first = true,
					     .max_proposals = 20 };
		struct slt_adv_units us;
		struct slt_error err = { 0 };
		assert_int_equal(slt_adv_units_build(a, &o, &us, &err), 0);
		assert_int_equal(!!(us.u[us.n - 1].flags & SLT_ADV_LAST), !last);
		assert_false(us.u[us.n - 1].flags & SLT_ADV_ANCHORED);
		slt_adv_units_free(&us);
		struct slt_advice *adv;
		assert_int_equal(slt_advise(a, &o, &adv, &err), 0);
		for (size_t k = 0; k < adv->n_proposals; k++) {
			const struct slt_struct *l = &adv->proposals[k].layout;
			bool is_last = !strcmp(l->members[l->n_members - 1].name, "thread");
			if (!last)
				assert_true(is_last);
			moved_away += last && !is_last;
		}
		slt_advice_free(adv);
	}
	slt_analysis_free(a);
	printf("# move_last: %zu proposals moved the last member\n", moved_away);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_never_worse),
		cmocka_unit_test(test_minimal_single),
		cmocka_unit_test(test_moved_one_definition),
		cmocka_unit_test(test_separation_lines),
		cmocka_unit_test(test_move_anchors_last),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
