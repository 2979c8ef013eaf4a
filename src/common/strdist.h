/* SPDX-License-Identifier: MIT */
/* Edit distance for "did you mean" suggestions.  Internal. */
#ifndef SLT_STRDIST_H
#define SLT_STRDIST_H

#include <stddef.h>

/* Longest name, in bytes, slt_strdist() compares; longer ones are never
 * close to anything. */
#define SLT_STRDIST_MAX 256

/*
 * Optimal string alignment (Damerau-Levenshtein with adjacent
 * transpositions) distance between a and b, or limit + 1 when it exceeds
 * limit (computed in O(len * limit) time, no allocation for names up to
 * 256 bytes; longer strings count as limit + 1).
 */
unsigned slt_strdist(const char *a, const char *b, unsigned limit);

/*
 * A ranked list of the closest names seen so far.  Feed candidates with
 * slt_suggest_add(); names at distance > limit are ignored.
 */
struct slt_suggest {
	const char *query;
	unsigned limit;   /* max distance kept: strlen(query) / 3 + 1 */
	size_t max;       /* how many to keep, <= 8 */
	size_t n;
	char *names[8];   /* malloc()ed, best first */
	unsigned dist[8];
};

/* Start a list for query; a query over SLT_STRDIST_MAX bytes keeps
 * nothing (max becomes 0). */
void slt_suggest_init(struct slt_suggest *s, const char *query, size_t max);
/* Consider name (copied when kept).  Duplicates are ignored.  Returns 0 or
 * SLT_ENOMEM. */
int slt_suggest_add(struct slt_suggest *s, const char *name);
/* True when name could still enter the list (cheap pre-check on length). */
int slt_suggest_could(const struct slt_suggest *s, size_t len);
/* Hand the names over: *out gets a malloc()ed array of the kept names,
 * returns their count; s is left empty. */
size_t slt_suggest_take(struct slt_suggest *s, char ***out);
void slt_suggest_release(struct slt_suggest *s);

#endif
