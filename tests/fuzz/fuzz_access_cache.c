/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the access map cache payload (src/access/persist.c,
 * slt_access_load) on arbitrary bytes.  A payload that loads must save
 * to bytes that load again and save to the same bytes; the loaded map's
 * sites are then read the way the commands read them (per-member lookups
 * by type name, evidence counts through the embedded-type table). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "structlint/access.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slt_access_map *m = NULL, *m2 = NULL;
	struct slt_error err;
	slt_error_clear(&err);
	if (slt_access_load(data, size, "/nonexistent/fuzz", &m, &err))
		return 0;
	uint64_t sum = 0;
	for (size_t i = 0; i < m->n_sites; i++) {
		const struct slt_access_site *s = &m->sites[i];
		sum += strlen(s->type) + s->width + m->funcs[s->func].low_pc;
		sum += slt_access_containers(m, s->type, s->type_size);
	}
	void *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	if (slt_access_save(m, &a, &na, &err) ||
	    slt_access_load(a, na, "/nonexistent/fuzz", &m2, &err) ||
	    slt_access_save(m2, &b, &nb, &err) || na != nb || memcmp(a, b, na))
		__builtin_trap();
	(void)sum;
	free(a);
	free(b);
	slt_access_free(m2);
	slt_access_free(m);
	return 0;
}
