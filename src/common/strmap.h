/* SPDX-License-Identifier: MIT */
/*
 * A string -> index map (open addressing, FNV-1a): constant time per
 * lookup, so name lookups over N entries (rules sections, classes entries,
 * struct names) cost O(N), not O(N^2).  Keys are borrowed: each key's
 * bytes must outlive the map.  Internal.
 */
#ifndef SLT_STRMAP_H
#define SLT_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct slt_strmap_slot;

struct slt_strmap {
	struct slt_strmap_slot *slots;
	size_t cap, n;   /* cap: 0 or a power of two */
};

/* Find key[0..len); *value set when found. */
bool slt_strmap_get(const struct slt_strmap *m, const char *key, size_t len, size_t *value);

/* Insert key[0..len) -> value unless the key is there: 1 and *old set
 * (old may be NULL) when it was, 0 when inserted, SLT_ENOMEM. */
int slt_strmap_put(struct slt_strmap *m, const char *key, size_t len, size_t value,
		   size_t *old);

/* Free the table (not the keys); the map is empty again. */
void slt_strmap_free(struct slt_strmap *m);

#endif
