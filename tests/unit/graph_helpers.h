/* SPDX-License-Identifier: MIT */
/* Hand-built type graphs for the layout unit tests (no loader needed). */
#ifndef SLT_TEST_GRAPH_HELPERS_H
#define SLT_TEST_GRAPH_HELPERS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "layout/build.h"
#include "structlint/report.h"

static inline struct slt_type *g_type(struct slt_arena *a, enum slt_tkind k,
			       const char *name, uint64_t size,
			       struct slt_type *ref)
{
	struct slt_type *t = slt_arena_alloc(a, sizeof(*t));

	t->kind = k;
	t->name = name;
	t->size = size;
	t->ref = ref;
	return t;
}

#define G_INT(a, n, s) g_type(a, SLT_T_INT, n, s, NULL)
#define G_PTR(a, r) g_type(a, SLT_T_PTR, NULL, 8, r)
#define G_CONST(a, r) g_type(a, SLT_T_CONST, NULL, 0, r)
#define G_VOLATILE(a, r) g_type(a, SLT_T_VOLATILE, NULL, 0, r)
#define G_TYPEDEF(a, n, r) g_type(a, SLT_T_TYPEDEF, n, 0, r)

static inline struct slt_type *g_array(struct slt_arena *a, struct slt_type *elem,
				uint64_t n, uint64_t elem_size)
{
	struct slt_type *t = g_type(a, SLT_T_ARRAY, NULL, n * elem_size, elem);

	t->nelems = n;
	if (!n)
		t->flags |= SLT_TF_FLEX;
	return t;
}

static inline struct slt_type *g_func(struct slt_arena *a, struct slt_type *ret,
			       unsigned n, ...)
{
	struct slt_type *t = g_type(a, SLT_T_FUNC, NULL, 0, ret);
	va_list ap;

	t->params = slt_arena_calloc(a, n ? n : 1, sizeof(*t->params));
	t->n_params = n;
	va_start(ap, n);
	for (unsigned i = 0; i < n; i++)
		t->params[i] = va_arg(ap, struct slt_type *);
	va_end(ap);
	return t;
}

/* A struct/union with room for n members, filled with g_mem(). */
static inline struct slt_type *g_comp(struct slt_arena *a, enum slt_tkind k,
			       const char *name, uint64_t size, unsigned n)
{
	struct slt_type *t = g_type(a, k, name, size, NULL);

	t->members = slt_arena_calloc(a, n ? n : 1, sizeof(*t->members));
	return t;
}

/* Append a member at bit offset bits (bit_size 0: not a bitfield). */
static inline void g_mem(struct slt_type *s, const char *name, struct slt_type *t,
		  uint64_t bits, uint32_t bit_size, uint32_t align)
{
	struct slt_tmember *m = &s->members[s->n_members++];

	m->name = name;
	m->type = t;
	m->bit_offset = bits;
	m->bit_size = bit_size;
	m->alignment = align;
}

/* Build t as if read from format and render it as text; returns a
 * malloc()ed string. */
static inline char *g_text_fmt(struct slt_arena *a, struct slt_type *t,
			       enum slt_format format, bool expand,
			       struct slt_struct *out,
			       const struct slt_report_opts *opts)
{
	struct slt_struct s;
	struct slt_layout l = { .structs = &s, .n_structs = 1 };
	struct slt_error err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (slt_build_struct(a, t, format, expand, "test", &s, &err))
		return NULL;
	if (out)
		*out = s;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (slt_report_layout_text(f, &l, opts, &err)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

/* g_text_fmt() for DWARF. */
static inline char *g_text(struct slt_arena *a, struct slt_type *t, bool expand,
			   struct slt_struct *out,
			   const struct slt_report_opts *opts)
{
	return g_text_fmt(a, t, SLT_FORMAT_DWARF, expand, out, opts);
}

#endif
