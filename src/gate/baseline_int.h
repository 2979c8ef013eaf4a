/* SPDX-License-Identifier: MIT */
/* Internal to src/gate/baseline*.c and suppress.c. */
#ifndef SLT_GATE_BASELINE_INT_H
#define SLT_GATE_BASELINE_INT_H

#include <jansson.h>
#include <stdbool.h>

#include "common/arena.h"
#include "structlint/baseline.h"

/* The member flags a baseline records (all of enum slt_member_flags). */
#define SLT_BL_FLAGS_KNOWN 0x7ffu

struct slt_bl_flag {
	uint32_t bit;
	const char *name;
};
/* Flag names as the JSON spells them, NULL-terminated. */
extern const struct slt_bl_flag slt_bl_flags[];

struct bl_priv {
	struct slt_arena *arena;
	size_t cap_structs;
	size_t cap_sup;
};

/* An empty baseline with its arena; NULL when out of memory. */
struct slt_baseline *slt_bl_alloc(void);
/* A new zeroed struct entry at the end of b->structs; NULL when out of
 * memory. */
struct slt_baseline_struct *slt_bl_push_struct(struct slt_baseline *b);
/* A power of two from 8 to 4096. */
bool slt_bl_cacheline_ok(uint64_t v);
/* The lines [first, last] a member occupies (slt_member_lines). */
void slt_bl_lines(uint64_t offset, uint64_t size, uint32_t flags,
		  unsigned cl, uint64_t *first, uint64_t *last);
/* Append a copy of e (strings into a) to s; -1 when out of memory. */
int slt_bl_push_suppression(struct slt_suppressions *s, size_t *cap,
			    struct slt_arena *a, const struct slt_suppression *e);
/* The suppressions array as JSON (entries in order). */
json_t *slt_bl_suppressions_json(const struct slt_suppressions *s, bool *bad);

#endif
