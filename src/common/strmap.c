/* SPDX-License-Identifier: MIT */
/* String -> index map.  See strmap.h. */
#include "common/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "structlint/error.h"

struct slt_strmap_slot {
	const char *key;   /* NULL: empty */
	size_t len, value;
	uint64_t hash;
};

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static struct slt_strmap_slot *find(const struct slt_strmap *m, const char *key, size_t len,
				    uint64_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		struct slt_strmap_slot *s = &m->slots[i];
		if (!s->key || (s->hash == h && s->len == len && !memcmp(s->key, key, len)))
			return s;
	}
}

bool slt_strmap_get(const struct slt_strmap *m, const char *key, size_t len, size_t *value)
{
	if (!m->cap)
		return false;
	const struct slt_strmap_slot *s = find(m, key, len, fnv1a(key, len));
	if (!s->key)
		return false;
	*value = s->value;
	return true;
}

static int grow(struct slt_strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct slt_strmap_slot *old = m->slots;
	size_t ocap = m->cap;
	if (cap > SIZE_MAX / sizeof(*old) || !(m->slots = calloc(cap, sizeof(*old)))) {
		m->slots = old;
		return SLT_ENOMEM;
	}
	m->cap = cap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].key)
			*find(m, old[i].key, old[i].len, old[i].hash) = old[i];
	free(old);
	return 0;
}

int slt_strmap_put(struct slt_strmap *m, const char *key, size_t len, size_t value,
		   size_t *old)
{
	if ((m->n + 1) * 2 > m->cap && grow(m))   /* at most half full */
		return SLT_ENOMEM;
	uint64_t h = fnv1a(key, len);
	struct slt_strmap_slot *s = find(m, key, len, h);
	if (s->key) {
		if (old)
			*old = s->value;
		return 1;
	}
	*s = (struct slt_strmap_slot){ key, len, value, h };
	m->n++;
	return 0;
}

void slt_strmap_free(struct slt_strmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}
