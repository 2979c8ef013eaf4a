/* SPDX-License-Identifier: MIT */
/*
 * Optimal string alignment distance (Levenshtein plus transposition of two
 * adjacent characters, each edit counted once) and a small ranked list of
 * "did you mean" candidates.  See src/common/strdist.h.
 */
#include "common/strdist.h"

#include <stdlib.h>
#include <string.h>

#include "structlint/error.h"

#define STRDIST_MAXLEN SLT_STRDIST_MAX

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;
	return m < c ? m : c;
}

/*
 * Banded dynamic programme: only cells with |i - j| <= limit can hold a
 * distance <= limit, so each row computes at most 2 * limit + 1 cells and
 * the cells just outside the band are set to inf (limit + 1).  Three rows
 * are kept for the transposition step.
 */
unsigned slt_strdist(const char *a, const char *b, unsigned limit)
{
	size_t la = strlen(a), lb = strlen(b);
	const unsigned inf = limit + 1;

	if (la > STRDIST_MAXLEN || lb > STRDIST_MAXLEN)
		return inf;
	if ((la > lb ? la - lb : lb - la) > limit)
		return inf;
	if (la == 0 || lb == 0)
		return (unsigned)(la + lb);   /* <= limit, checked above */

	unsigned rows[3][STRDIST_MAXLEN + 2];
	unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	/* Row 0: distance from "" to b[0..j) is j. */
	for (size_t j = 0; j <= lb + 1 && j <= STRDIST_MAXLEN + 1; j++)
		prev[j] = j <= limit && j <= lb ? (unsigned)j : inf;
	for (size_t j = 0; j <= lb + 1 && j <= STRDIST_MAXLEN + 1; j++)
		prev2[j] = inf;

	for (size_t i = 1; i <= la; i++) {
		size_t jlo = i > limit ? i - limit : 1;
		size_t jhi = i + limit < lb ? i + limit : lb;
		unsigned rowmin = inf;

		cur[jlo - 1] = jlo == 1 && i <= limit ? (unsigned)i : inf;
		for (size_t j = jlo; j <= jhi; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned d = min3(prev[j] + 1, cur[j - 1] + 1,
					  prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			if (d > inf)
				d = inf;
			cur[j] = d;
			if (d < rowmin)
				rowmin = d;
		}
		if (jhi + 1 <= lb)
			cur[jhi + 1] = inf;
		if (rowmin > limit)
			return inf;
		unsigned *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb] > limit ? inf : prev[lb];
}

void slt_suggest_init(struct slt_suggest *s, const char *query, size_t max)
{
	memset(s, 0, sizeof(*s));
	s->query = query;
	s->limit = (unsigned)(strlen(query) / 3 + 1);
	s->max = max > 8 ? 8 : max;
	/* slt_strdist() counts names over SLT_STRDIST_MAX bytes as too far:
	 * no candidate can be kept, so take none (and cost nothing). */
	if (strlen(query) > SLT_STRDIST_MAX)
		s->max = 0;
}

/* The largest distance a new name may have and still be kept. */
static unsigned effective_limit(const struct slt_suggest *s)
{
	if (s->max > 0 && s->n == s->max)
		return s->dist[s->n - 1];
	return s->limit;
}

int slt_suggest_could(const struct slt_suggest *s, size_t len)
{
	if (s->max == 0)
		return 0;
	size_t ql = strlen(s->query);
	size_t diff = len > ql ? len - ql : ql - len;
	return diff <= effective_limit(s);
}

/* Rank: smaller distance first, then name order (so the result does not
 * depend on the order candidates arrive in). */
static int better(unsigned da, const char *na, unsigned db, const char *nb)
{
	if (da != db)
		return da < db;
	return strcmp(na, nb) < 0;
}

int slt_suggest_add(struct slt_suggest *s, const char *name)
{
	if (!name || !name[0] || !slt_suggest_could(s, strlen(name)))
		return 0;
	unsigned d = slt_strdist(s->query, name, effective_limit(s));
	if (d > effective_limit(s))
		return 0;
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->names[i], name) == 0)
			return 0;
	if (s->n == s->max &&
	    !better(d, name, s->dist[s->n - 1], s->names[s->n - 1]))
		return 0;

	char *copy = strdup(name);
	if (!copy)
		return SLT_ENOMEM;
	if (s->n == s->max) {
		free(s->names[s->n - 1]);
		s->n--;
	}
	size_t pos = s->n;
	while (pos > 0 && better(d, name, s->dist[pos - 1], s->names[pos - 1])) {
		s->names[pos] = s->names[pos - 1];
		s->dist[pos] = s->dist[pos - 1];
		pos--;
	}
	s->names[pos] = copy;
	s->dist[pos] = d;
	s->n++;
	return 0;
}

size_t slt_suggest_take(struct slt_suggest *s, char ***out)
{
	size_t n = s->n;
	*out = NULL;
	if (n == 0)
		return 0;
	char **v = malloc(n * sizeof(*v));
	if (!v) {
		slt_suggest_release(s);
		return 0;
	}
	memcpy(v, s->names, n * sizeof(*v));
	s->n = 0;
	*out = v;
	return n;
}

void slt_suggest_release(struct slt_suggest *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->names[i]);
	s->n = 0;
}
