/* SPDX-License-Identifier: MIT */
/* Shared by the layout builder tests (test_build.c, test_build_expand.c):
 * the base integer types of a hand-built graph and the text check against
 * pahole's output.  Include after <cmocka.h>. */
#ifndef SLT_TEST_BUILD_HELPERS_H
#define SLT_TEST_BUILD_HELPERS_H

#include "graph_helpers.h"

struct base { struct slt_arena *a; struct slt_type *c, *s, *i, *l, *ui, *ul; };

static inline void base_init(struct base *b)
{
	b->a = slt_arena_new();
	b->c = G_INT(b->a, "char", 1);
	b->s = G_INT(b->a, "short int", 2);
	b->i = G_INT(b->a, "int", 4);
	b->l = G_INT(b->a, "long int", 8);
	b->ui = G_INT(b->a, "unsigned int", 4);
	b->ul = G_INT(b->a, "long unsigned int", 8);
}

static inline void check_text(struct slt_arena *a, struct slt_type *t, const char *want)
{
	char *got = g_text(a, t, false, NULL, NULL);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

#endif
