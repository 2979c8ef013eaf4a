/* SPDX-License-Identifier: MIT */
/*
 * The names the maps draw (heatmap.h, slt_hm_label()): a member's own
 * name, unless another member drawn on the map (an owner of some byte or
 * one of a line's hid members) has the same one (`lock` of both
 * sk_receive_queue.lock and sk_lock.slock.rlock...lock): then the
 * shortest dotted suffix of its path (anonymous levels left out, as
 * slt_member_path() writes it) that no other of those members shares
 * (`sk_receive_queue.lock`).  Members are grouped by name (sorted), and
 * each group of two or more is sorted again by suffix, one more level a
 * round, so the cost is n log n per level of nesting.
 */
#include <stdlib.h>
#include <string.h>

#include "join/join_int.h"
#include "report/heatmap.h"

struct cand {
	long i;
	const char *key;        /* the name, then the suffix tried */
	char *path;
	bool done;
};

static int by_key(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The suffix of path of d components (the whole path when it has fewer). */
static const char *suffix(const char *path, unsigned d)
{
	const char *p = path + strlen(path);
	while (p > path) {
		if (p[-1] == '.' && --d == 0)
			return p;
		p--;
	}
	return path;
}

/* Labels for the group g[0..n) of one name. */
static int group(struct slt_hm *m, struct cand *g, size_t n)
{
	for (size_t x = 0; x < n; x++) {
		char buf[512];
		g[x].path = strdup(slt_member_path(m->s, (size_t)g[x].i, buf, sizeof(buf)));
		if (!g[x].path)
			return SLT_ENOMEM;
	}
	size_t left = n;
	for (unsigned d = 2; left; d++) {
		size_t moved = 0;
		for (size_t x = 0; x < n; x++) {
			const char *k = suffix(g[x].path, d);
			moved += k != g[x].key;
			g[x].key = k;
		}
		qsort(g, n, sizeof(*g), by_key);
		for (size_t x = 0; x < n; x++) {
			bool same = (x && !strcmp(g[x - 1].key, g[x].key)) ||
				    (x + 1 < n && !strcmp(g[x + 1].key, g[x].key));
			/* unique, or no longer path to tell them apart by */
			if (!g[x].done && (!same || !moved)) {
				g[x].done = true;
				left--;
				if (!(m->label[g[x].i] = strdup(g[x].key)))
					return SLT_ENOMEM;
			}
		}
	}
	return 0;
}

int slt_hm_labels(struct slt_hm *m)
{
	size_t nm = m->s->n_members;
	m->label = calloc(nm + 1, sizeof(*m->label));
	bool *drawn = calloc(nm + 1, sizeof(*drawn));
	struct cand *c = malloc((nm + 1) * sizeof(*c));
	int rc = !m->label || !drawn || !c ? SLT_ENOMEM : 0;
	size_t n = 0;
	for (size_t b = 0; !rc && b < m->n_lines * m->cl; b++)
		if (m->owner[b] >= 0)
			drawn[m->owner[b]] = true;
	for (size_t x = 0; !rc && x < m->hid_at[m->n_lines]; x++)
		drawn[m->hid[x]] = true;
	for (size_t i = 0; !rc && i < nm; i++)
		if (drawn[i] && m->s->members[i].name[0])
			c[n++] = (struct cand){ .i = (long)i, .key = m->s->members[i].name };
	if (!rc)
		qsort(c, n, sizeof(*c), by_key);
	for (size_t x = 0; !rc && x < n;) {
		size_t e = x + 1;
		while (e < n && !strcmp(c[e].key, c[x].key))
			e++;
		if (e - x > 1)
			rc = group(m, c + x, e - x);
		x = e;
	}
	for (size_t x = 0; c && x < n; x++)
		free(c[x].path);
	free(c);
	free(drawn);
	return rc;
}

const char *slt_hm_label(const struct slt_hm *m, long i)
{
	return m->label && m->label[i] ? m->label[i] : m->s->members[i].name;
}

void slt_hm_labels_free(struct slt_hm *m)
{
	for (size_t i = 0; m->label && i < m->s->n_members; i++)
		free(m->label[i]);
	free(m->label);
	m->label = NULL;
}
