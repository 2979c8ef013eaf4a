/* SPDX-License-Identifier: MIT */
/* The (struct, member) index of a classes set.  See classes_index.h. */
#include "analysis/classes_index.h"

#include <stdlib.h>
#include <string.h>

#include "common/strmap.h"

struct classes_priv {
	struct slt_arena *arena;
	struct slt_strmap index;   /* "STRUCT\0MEMBER" -> entries[] index */
	size_t indexed;            /* entries[0..indexed) are in index */
	size_t cap;                /* entries[] capacity */
};

int slt_classes_priv_init(struct slt_classes *c, struct slt_arena *a)
{
	struct classes_priv *p = calloc(1, sizeof(*p));
	if (!p)
		return SLT_ENOMEM;
	p->arena = a;
	p->cap = c->n;
	c->priv_ = p;
	return 0;
}

struct slt_arena *slt_classes_arena(const struct slt_classes *c)
{
	return ((struct classes_priv *)c->priv_)->arena;
}

void slt_classes_priv_free(struct slt_classes *c)
{
	struct classes_priv *p = c->priv_;
	if (!p)
		return;
	slt_strmap_free(&p->index);
	slt_arena_free(p->arena);
	free(p);
	c->priv_ = NULL;
}

/* "st\0m" into buf (n bytes) or the arena when longer; its length. */
static char *key(struct slt_arena *a, const char *st, const char *m, char *buf, size_t n,
		 size_t *len)
{
	size_t ls = strlen(st), lm = strlen(m);
	*len = ls + 1 + lm;
	char *k = *len < n ? buf : slt_arena_alloc(a, *len + 1);
	if (k) {
		memcpy(k, st, ls + 1);
		memcpy(k + ls + 1, m, lm + 1);
	}
	return k;
}

int slt_classes_index_find(const struct slt_classes *c, const char *st, const char *m,
			   size_t *idx)
{
	struct classes_priv *p = c->priv_;
	char buf[256];
	size_t len;
	for (; p->indexed < c->n; p->indexed++) {
		const struct slt_class_entry *e = &c->entries[p->indexed];
		char *k = key(p->arena, e->struct_name, e->member, NULL, 0, &len);
		if (!k || slt_strmap_put(&p->index, k, len, p->indexed, NULL) < 0)
			return SLT_ENOMEM;
	}
	const char *k = key(p->arena, st, m, buf, sizeof(buf), &len);
	if (!k)
		return SLT_ENOMEM;
	return slt_strmap_get(&p->index, k, len, idx) ? 1 : 0;
}

int slt_classes_reserve(struct slt_classes *c)
{
	struct classes_priv *p = c->priv_;
	if (c->n < p->cap)
		return 0;
	size_t cap = p->cap ? 2 * p->cap : 32;
	struct slt_class_entry *e = realloc(c->entries, cap * sizeof(*e));
	if (!e)
		return SLT_ENOMEM;
	c->entries = e;
	p->cap = cap;
	return 0;
}
